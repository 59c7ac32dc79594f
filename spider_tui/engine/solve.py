"""The solver (SPEC §14): full-knowledge search for a whole winning line from a position.

It looks at face-down cards and the stock, which a player can't: every place its answer
shows says so.  Pure Python, no clock: the caller passes ``stop`` (a callable that says when
time is up, asked every few hundred positions) and/or ``max_nodes``.

Search runs on the lean position (``lean.py``) in two passes:

1. **Greedy best-first** over the moves a good player considers: whole runs onto a card one
   rank higher, a whole run into the first empty column, a part of a run only when it
   completes a K→A run, several runs that join in rank carried through empty columns at
   once, and the deal.  Positions are ordered by a score (completed runs, turned-up cards,
   same-suit joins, empty columns) and each position is met once (a transposition table on
   the position's columns and stock).  Three passes with different weights (``PROFILES``)
   run side by side, a few hundred positions each in turn; the first win ends them.
2. If that pass runs out of positions without a win, an **exhaustive** pass over every legal
   move (except a whole column into an empty one once the stock is empty: the same table)
   decides: when it too runs dry, the position is "not winnable".

>>> from spider_tui.engine import Game
>>> g = Game.from_text("suits: 1\\nstock: -\\n1: | 2s\\n2: | As\\n3: |\\n4: |\\n5: |\\n6: |\\n7: |\\n8: |\\n9: |\\n10: |")
>>> solve(g).result  # a partial position: two cards can't make a run
'not winnable'
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field

from . import lean
from .cards import UNKNOWN as UNKNOWN_CARD
from .game import RUN, Game
from .lean import Board, Node

WINNABLE, NOT_WINNABLE, UNKNOWN = "winnable", "not winnable", "unknown"
CHECK_EVERY = 256  # positions between two calls of ``stop``


@dataclass
class Solution:
    """What the solver found: ``result`` is "winnable", "not winnable" or "unknown";
    ``moves`` (SPEC §3 move text, ``deal`` included) is a whole win from the position asked
    about, present only when winnable; ``nodes`` counts the positions made."""

    result: str
    moves: list[str] | None = None
    nodes: int = 0
    exhaustive: bool = field(default=False, repr=False)


def supported(game: Game) -> str | None:
    """Why the solver can't take ``game``'s rules, or None when it can."""
    if game.rules.scorpion:
        return "the solver doesn't play Scorpion rules yet"
    if game.rules.joker:
        return "the solver doesn't play the Joker rule yet"
    if UNKNOWN_CARD in game.stock or any(UNKNOWN_CARD in cards for cards in game.columns):
        return "the position has unseen cards (??): the solver needs to know every card"
    return None


# ---------------------------------------------------------------------- the score
@dataclass(frozen=True)
class Profile:
    """Weights of a greedy pass.  A completed run is worth more than the 12 joins it removes."""

    run: int = 400
    join: int = 20  # a same-suit join (the card below is the next rank, same suit)
    natural: int = 0  # a join of the next rank in another suit
    brk: int = -10  # two face-up cards that don't join
    down: int = -14  # a face-down card
    empty: int = 60  # an empty column
    dealt: int = 30  # a stock row dealt


#: The greedy passes run side by side, one position each in turn: different weights solve
#: different deals, and the first win ends the race.
PROFILES = (Profile(), Profile(join=30), Profile(natural=6, down=-20))


class Scorer:
    """Scores positions with a Profile; caches column scores (children share most columns)."""

    def __init__(self, profile: Profile):
        self.p = profile
        self.cache: dict[bytes, int] = {}

    def column(self, col: bytes) -> int:
        p = self.p
        d = col[0]
        n = len(col)
        if n == 1:
            v = p.empty
        else:
            v = p.down * d
            for i in range(d + 2, n):
                a, b = col[i - 1], col[i]
                if a == b + 1:
                    v += p.join
                elif (a & 15) == (b & 15) + 1:
                    v += p.natural
                else:
                    v += p.brk
        if len(self.cache) > 1_000_000:
            self.cache.clear()
        self.cache[col] = v
        return v

    def __call__(self, board: Board, node: Node) -> int:
        cache = self.cache
        v = 0
        for col in node[0]:
            c = cache.get(col)
            v += self.column(col) if c is None else c
        return v + self.p.run * board.done(node) + self.p.dealt * node[2]


# ---------------------------------------------------------------------- the moves
def candidate_moves(board: Board, node: Node, exhaustive: bool) -> Iterator[lean.LeanMove | list]:
    """The moves a pass considers (see the module docstring)."""
    cols, runs, dealt = node
    n = len(cols)
    stock = dealt < len(board.rows)
    empties = []
    tops: dict[int, list[int]] = {}  # exposed rank -> columns
    for t in range(n):
        col = cols[t]
        if len(col) == 1:
            empties.append(t)
        else:
            r = col[-1] & 15
            if r in tops:
                tops[r].append(t)
            else:
                tops[r] = [t]
    if exhaustive and stock:
        into = empties
    else:
        into = empties[:1]  # with no deal to come, every empty column is the same
    for s in range(n):
        run = runs[s]
        if not run:
            continue
        src = cols[s]
        exposed = src[-1] & 15
        whole = len(src) - 1 == run
        for k in range(1, run + 1):
            targets = tops.get(exposed + k)
            if targets is None:
                continue
            if k < run and not exhaustive:
                lead = src[-k]
                for t in targets:
                    if cols[t][-1] == lead + 1 and runs[t] + k >= RUN:
                        yield (s, t, k)  # completes a run
                continue
            for t in targets:
                yield (s, t, k)
        for t in into:
            if exhaustive:
                for k in range(run, 0, -1):
                    if k == run and whole and not stock:
                        continue  # the same table
                    yield (s, t, k)
            elif not whole:
                yield (s, t, run)
        if not exhaustive and empties and not whole:
            yield from _carries(cols, s, run, empties, tops)
    if board.can_deal(node):
        yield None


def _carries(cols, s: int, run: int, empties: list[int], tops: dict[int, list[int]]) -> Iterator[list]:
    """Moves of several same-suit runs that join in rank (off-suit) from column ``s`` at once,
    parking the upper runs in empty columns on the way: each is a list of plain moves."""
    src = cols[s]
    lo = src[0] + 1
    lead = len(src) - run  # index of the first card of the exposed run
    segs = [run]
    while len(segs) <= len(empties):
        above = lead - 1
        if above < lo or (src[above] & 15) != (src[lead] & 15) + 1:
            break
        i = above
        while i > lo and src[i - 1] == src[i] + 1:
            i -= 1
        segs.append(above - i + 1)
        lead = i
        j = len(segs)
        targets = list(tops.get((src[lead] & 15) + 1, ()))
        if j <= len(empties) and lead > 1:
            targets.append(-1)  # into an empty column
        for t in targets:
            if t == -1:
                t, spare = empties[0], empties[1:]
            else:
                spare = empties
            parked = spare[: j - 1]
            moves = [(s, e, k) for e, k in zip(parked, segs)]
            moves.append((s, t, segs[j - 1]))
            moves.extend((e, t, k) for e, k in zip(reversed(parked), reversed(segs[: j - 1])))
            yield moves


def _key(node: Node, board: Board):
    if node[2] == len(board.rows):
        return tuple(sorted(node[0]))  # no deal to come: the columns' order doesn't matter
    return node[0], node[2]


def _path(parents: dict, key) -> list[str]:
    out: list[str] = []
    while True:
        parent, move = parents[key]
        if parent is None:
            break
        if type(move) is list:
            out.extend(lean.move_text(m) for m in reversed(move))
        else:
            out.append(lean.move_text(move))
        key = parent
    out.reverse()
    return out


def _play_carry(node: Node, moves: list) -> Node | None:
    """The child after a list of plain moves, or None when one of them is not legal then (a
    run completed on the way)."""
    for s, t, k in moves:
        cols, runs, _ = node
        dst = cols[t]
        if runs[s] < k or (len(dst) > 1 and (dst[-1] & 15) != (cols[s][-k] & 15) + 1):
            return None
        node = lean.play_move(node, s, t, k)[0]
    return node


def _search(board: Board, root: Node, exhaustive: bool, score: Scorer) -> Generator[int, None, tuple]:
    """One pass, as a generator: yields the positions it made since the last yield (every few
    hundred) and returns (result, moves, positions made since then) when it found a win or ran
    out of positions."""
    root_key = _key(root, board)
    parents: dict = {root_key: (None, None)}
    if board.is_won(root):
        return WINNABLE, [], 1
    heap = [(-score(board, root), 0, root, root_key)]
    made = 1
    tick = 0
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        _, _, node, key = pop(heap)
        for move in candidate_moves(board, node, exhaustive):
            if isinstance(move, list):
                child = _play_carry(node, move)
                if child is None:
                    continue
            else:
                child = lean.play(board, node, move)
            ckey = _key(child, board)
            if ckey in parents:
                continue
            parents[ckey] = (key, move)
            made += 1
            if board.is_won(child):
                return WINNABLE, _path(parents, ckey), made
            push(heap, (-score(board, child), made, child, ckey))
        tick += 1
        if tick >= CHECK_EVERY:
            tick = 0
            yield made
            made = 0
    return (NOT_WINNABLE if exhaustive else UNKNOWN), None, made


def _race(passes: list, budget: int | None, stop: Callable[[], bool] | None) -> tuple[str | None, list[str] | None, int]:
    """Run passes side by side; (result, moves, positions made).  result is None when the
    budget or ``stop`` ended the race, UNKNOWN when a pass ran out of positions."""
    made = 0
    while True:
        for run in passes:
            try:
                made += next(run)
            except StopIteration as end:
                result, moves, last = end.value
                return result, moves, made + last
            if (budget is not None and made >= budget) or (stop is not None and stop()):
                return None, None, made


def solve(game: Game, *, stop: Callable[[], bool] | None = None, max_nodes: int | None = None) -> Solution:
    """Search for a win from ``game``'s position with full knowledge; see ``Solution``.

    ``stop()`` returning True (asked every few hundred positions) or ``max_nodes`` positions
    made ends the search with "unknown".  Raises ValueError for rules it doesn't play.
    """
    reason = supported(game)
    if reason:
        raise ValueError(reason)
    board, root = lean.from_game(game)
    # The greedy passes share one move set: when one runs dry, so would the others.
    result, moves, made = _race([_search(board, root, False, Scorer(p)) for p in PROFILES], max_nodes, stop)
    if result is None:
        return Solution(UNKNOWN, None, made)
    if result == WINNABLE:
        return Solution(result, moves, made)
    left = None if max_nodes is None else max_nodes - made
    result, moves, more = _race([_search(board, root, True, Scorer(PROFILES[0]))], left, stop)
    return Solution(result or UNKNOWN, moves, made + more, exhaustive=result == NOT_WINNABLE)


__all__ = ["Solution", "solve", "supported", "Profile", "PROFILES", "WINNABLE", "NOT_WINNABLE", "UNKNOWN"]
