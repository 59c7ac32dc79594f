"""The solver (SPEC §14): full-knowledge search for a whole winning line from a position.

It looks at face-down cards and the stock, which a player can't: every place its answer
shows says so.  Pure Python, no clock: the caller passes ``stop`` (a callable that says when
time is up, asked every few hundred positions) and/or ``max_nodes``.

Search runs on the lean position (``lean.py``) in two stages:

1. **Layered beam search** over the moves a good player considers: whole runs onto a card one
   rank higher, a part of a run only where it makes a longer same-suit run at the target, a
   whole run into the first empty column (never a whole column: with the stock empty that is
   the same table), several runs that join in rank carried through empty columns at once,
   and the deal.  Finished runs leave at once (as in the rules).  Every layer is one move
   deeper; of its new positions the beam keeps the best ``width`` per number of stock rows
   dealt, ranked by ``Ranker`` with no reward for dealing: fewer same-suit fragments and
   face-down cards, columns based on a King or whose bottom card fits on another column's top,
   empty columns; ties by exposed run lengths and finished runs.  Each position is met once a
   pass (a transposition table on the columns and the stock level; with the stock empty the
   columns' order doesn't matter).  When a pass runs dry the next starts with twice the width
   (25, 50, 100, …) until a win is found or the caller stops it.
2. A beam pass that ran dry without dropping a position has followed every candidate line:
   then an **exhaustive** best-first pass over every legal move (except a whole column into an
   empty one once the stock is empty: the same table) decides; when it too runs dry, the
   position is "not winnable".  Only that pass ever says so.

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
CHECK_EVERY = 256  # positions expanded between two calls of ``stop`` (exhaustive search)
BEAM_CHECK_EVERY = 64  # the same in the beam
START_WIDTH = 25  # the first beam pass keeps this many positions a stock level and layer
EXHAUSTED = "exhausted"  # a beam pass that followed every candidate line


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


# ---------------------------------------------------------------------- the ranking
@dataclass(frozen=True)
class Weights:
    """How a position ranks among others with as many stock rows left (the beam never compares
    positions across stock levels, so dealing earns nothing).  Higher is better."""

    fragment: int = 100  # a same-suit fragment on the table (a run no longer than it must be)
    down: int = 100  # a face-down card
    good: int = 100  # a column based on a King, or whose bottom card fits on another column's top
    empty: int = 100  # an empty column
    done: int = 30  # a finished run
    run: int = 1  # per card in an exposed same-suit run (the tie-break)


WEIGHTS = Weights()


class Ranker:
    """Ranks positions with ``Weights``; caches what it learns about a column (children share
    most of their parent's columns).  Ranks are bit masks so that a position costs one pass
    over its columns: bit r of ``need`` says "this column's bottom card needs a rank r top",
    bit r of ``top`` "this column's exposed card has rank r"."""

    def __init__(self, w: Weights = WEIGHTS, keep: int = 1_000_000):
        self.w = w
        self.keep = keep  # columns cached at most
        self.cache: dict[bytes, tuple[int, int, int, int]] = {}

    def column(self, col: bytes) -> tuple[int, int, int, int]:
        """(value, need bit, top bit, cards)."""
        w = self.w
        n = len(col)
        if n == 1:
            out = (w.empty, 0, 0, 0)
        else:
            d = col[0]
            frags = 1
            for i in range(d + 2, n):
                if col[i - 1] != col[i] + 1:
                    frags += 1
            v = -w.fragment * frags - w.down * d
            need = 0
            if d == 0:
                base = col[1] & 15
                if base == 13:
                    v += w.good
                elif base:  # (rank 0: an unseen card turned up in the fair bot's search)
                    need = 1 << (base + 1)
            out = (v, need, 1 << (col[-1] & 15), n - 1)
        if len(self.cache) > self.keep:
            self.cache.clear()
        self.cache[col] = out
        return out

    def __call__(self, board: Board, node: Node) -> int:
        cache = self.cache
        v = needs = tops = cards = 0
        for col in node[0]:
            c = cache.get(col)
            if c is None:
                c = self.column(col)
            v += c[0]
            needs |= c[1]
            tops |= c[2]
            cards += c[3]
        w = self.w
        done = (board.total - cards - board.stock_after[node[2]]) // RUN
        return v + w.good * (needs & tops).bit_count() + w.done * done + w.run * sum(node[1])


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
        # An unseen card turned up (rank 0, the fair bot's search) goes only into an empty column.
        for k in range(1, run + 1 if exposed else 0):
            targets = tops.get(exposed + k)
            if targets is None:
                continue
            if k < run and not exhaustive:
                lead = src[-k]
                for t in targets:
                    if cols[t][-1] == lead + 1 and runs[t] + k > run:
                        yield (s, t, k)  # a longer same-suit run than the one split
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


def _beam(board: Board, root: Node, width: int, rank: Ranker) -> Generator[int, None, tuple]:
    """One layered beam pass of ``width``, as a generator (yields the positions made since the
    last yield).  Every layer is one move deeper; of the new positions in a layer it keeps the
    best ``width`` per number of stock rows dealt, so neither one stock level nor one deep line
    takes over.  Returns (WINNABLE, moves, made), (UNKNOWN, None, made) when it ran dry after
    dropping positions, or (EXHAUSTED, None, made) when it ran dry without dropping any (every
    candidate line was followed: a wider beam would find nothing new)."""
    rows = len(board.rows)
    key = _key(root, board)
    parents: dict = {key: (None, None)}
    layer = [(root, key)]
    dropped = False
    made = 0
    tick = 0
    play_move, play_deal, is_won = lean.play_move, lean.play_deal, board.is_won
    while layer:
        levels: dict[int, list] = {}
        for node, key in layer:
            for move in candidate_moves(board, node, False):
                if move is None:
                    child, completed = play_deal(board, node)
                elif type(move) is list:
                    carried = _play_carry(node, move)
                    if carried is None:
                        continue
                    child, completed = carried, 1
                else:
                    child, _, completed = play_move(node, *move)
                dealt = child[2]
                ckey = tuple(sorted(child[0])) if dealt == rows else (child[0], dealt)
                if ckey in parents:
                    continue
                parents[ckey] = (key, move)
                made += 1
                if completed and is_won(child):
                    return WINNABLE, _path(parents, ckey), made
                level = levels.get(dealt)
                if level is None:
                    level = levels[dealt] = []
                level.append((rank(board, child), made, child, ckey))
            tick += 1
            if tick >= BEAM_CHECK_EVERY:
                tick = 0
                yield made
                made = 0
        layer = []
        for level in levels.values():
            if len(level) > width:
                dropped = True
                level = heapq.nlargest(width, level)
            layer.extend((child, ckey) for _, _, child, ckey in level)
    return (UNKNOWN if dropped else EXHAUSTED), None, made


def _search(board: Board, root: Node, exhaustive: bool, score: Ranker) -> Generator[int, None, tuple]:
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


def solve(game: Game, *, stop: Callable[[], bool] | None = None, max_nodes: int | None = None,
          width: int = START_WIDTH) -> Solution:
    """Search for a win from ``game``'s position with full knowledge; see ``Solution``.

    ``stop()`` returning True (asked every few hundred positions) or ``max_nodes`` positions
    made ends the search with "unknown".  Raises ValueError for rules it doesn't play.
    ``width`` is the first beam pass's width (it doubles on every pass after).
    """
    reason = supported(game)
    if reason:
        raise ValueError(reason)
    board, root = lean.from_game(game)
    if board.is_won(root):
        return Solution(WINNABLE, [], 1)
    rank = Ranker()
    made = 0
    while True:
        left = None if max_nodes is None else max_nodes - made
        result, moves, more = _race([_beam(board, root, width, rank)], left, stop)
        made += more
        if result is None:
            return Solution(UNKNOWN, None, made)
        if result == WINNABLE:
            return Solution(result, moves, made)
        if result == EXHAUSTED:
            break  # every candidate line was followed: only the exhaustive search can say more
        width *= 2
    left = None if max_nodes is None else max_nodes - made
    result, moves, more = _race([_search(board, root, True, rank)], left, stop)
    return Solution(result or UNKNOWN, moves, made + more, exhaustive=result == NOT_WINNABLE)


__all__ = ["Solution", "solve", "supported", "Weights", "WEIGHTS", "Ranker", "START_WIDTH",
           "WINNABLE", "NOT_WINNABLE", "UNKNOWN"]
