"""A fair bot (SPEC §14): plays from a view, seeing only what a player sees, and never undoes.

``plan(view)`` takes a game read from ``Game.view()`` (every face-down and stock card ``??``)
and searches the moves it can reason about, best first; it looks past a move that turns up a
card, the card it can't know yet being a blocker there (nothing goes onto it, it moves only
into an empty column), and never past a deal.  It returns the line to the best position it
found, cut after the first move that turns up a card (fewer face-down cards and same-suit fragments, good and empty columns; see ``score``), the
deal when nothing on the table helps, or nothing when the round is stuck.

``play_round(game)`` plays a whole round: it shows the bot only ``Game.from_text(game.view())``,
plays the plan on ``game`` up to the first move that turned up a card or dealt, and asks again.
A plan played whole ends in a strictly better score; one cut short turns up a card; or it
deals: so a round ends.

>>> from spider_tui.engine import Game
>>> g = Game.new(7, suits=1)
>>> isinstance(play_round(g), bool) and (g.won or not g.can_undo)
True
"""

from __future__ import annotations

import heapq

from . import lean
from .game import DEAL, Game, Move
from .lean import Board, Node
from .solve import Ranker, Weights, candidate_moves

PLAN_NODES = 4000  # positions one plan may look at
#: Plan sizes by level (``plan(view, level=n)``, ``spider bots --level n``): positions a plan looks at.
LEVELS = (250, 1000, 4000, 12000, 30000)
FILL_FIRST = 1000  # while the stock waits for empty columns to be filled
FAIR_DOWN = 400  # a face-down card, against 100 for a same-suit fragment
MAX_ACTIONS = 3000  # a round never takes more (a guard; plans end long before)

#: The ranking (the solver's ``Ranker``: same-suit fragments, face-down cards, columns based on
#: a King or whose bottom card fits elsewhere, empty columns), with a face-down card weighing
#: much more than for the solver: a bot that can't see the cards learns only by turning them up.
FAIR_WEIGHTS = Weights(down=FAIR_DOWN)
_ranker = Ranker(FAIR_WEIGHTS, keep=200_000)


def score(board: Board, node: Node) -> int:
    """How good ``node`` looks to the bot (higher is better)."""
    return _ranker(board, node)


def _step(node: Node, move) -> tuple[Node | None, int]:
    """The child after a move or a carry (a list of moves), and the cards it turned up."""
    if type(move) is not list:
        child, flipped, _ = lean.play_move(node, *move)
        return child, flipped
    flipped = 0
    for s, t, k in move:
        cols, runs, _ = node
        dst = cols[t]
        if runs[s] < k or (len(dst) > 1 and (dst[-1] & 15) != (cols[s][-k] & 15) + 1):
            return None, 0
        node, f, _ = lean.play_move(node, s, t, k)
        flipped += f
    return node, flipped


def _moves(parents: dict, key) -> list:
    """The plain moves from the root to ``key``, cut after the first that turned up a card
    (what comes up is only known once it is played)."""
    steps: list = []
    while True:
        parent, move, flipped = parents[key]
        if parent is None:
            break
        steps.append((move, flipped))
        key = parent
    out: list = []
    for move, flipped in reversed(steps):
        out.extend(move if type(move) is list else [move])
        if flipped:
            break
    return out


def plan(view: Game, budget: int = PLAN_NODES, *, level: int | None = None,
         weights: Weights | None = None) -> list[Move]:
    """The moves the bot plays next from ``view`` (a game read from a view): a line up to and
    including the first move that turns up a card, or ending in the deal, or ``[]`` when
    nothing helps (stuck).

    The search looks past a move that turns up a card: the card it can't know yet is a blocker
    there (nothing goes onto it; it moves only into an empty column).  ``level`` (1 to
    ``len(LEVELS)``) picks the plan's size from ``LEVELS``; else ``budget`` positions.
    ``weights`` rank the positions instead of ``FAIR_WEIGHTS`` (a player with its own taste:
    the house bots at one table differ so)."""
    if level is not None:
        budget = LEVELS[max(1, min(len(LEVELS), level)) - 1]
    ranker = _ranker if weights is None else Ranker(weights, keep=200_000)
    board, root = lean.from_game(view)
    if board.is_won(root):
        return []
    root_score = ranker(board, root)
    parents: dict = {root[0]: (None, None, False)}
    best_key, best = None, (root_score, 0)
    ready_key, ready = None, None  # the best position with no empty column (the stock may deal)
    turn_key, turn = None, None  # the best position that turned up a card
    need_fill = bool(view.stock) and view.deal_refusal() is not None
    heap = [(-root_score, 0, root)]
    made = 0
    while heap and made < budget:
        _, depth, node = heapq.heappop(heap)
        key = node[0]
        for move in candidate_moves(board, node, need_fill):
            if move is None:
                continue  # the deal: considered below, when nothing on the table helps
            child, flipped = _step(node, move)
            if child is None or child[0] in parents:
                continue
            parents[child[0]] = (key, move, flipped > 0)
            made += 1
            value = ranker(board, child)
            rank = (value, -(depth + 1))
            if rank > best:
                best, best_key = rank, child[0]
            if flipped and (turn is None or rank > turn):
                turn, turn_key = rank, child[0]
            if need_fill and (ready is None or rank > ready) and all(len(c) > 1 for c in child[0]):
                ready, ready_key = rank, child[0]
            if not board.is_won(child):
                if need_fill:  # look first where the empty columns get filled
                    value -= FILL_FIRST * sum(len(c) == 1 for c in child[0])
                heapq.heappush(heap, (-value, depth + 1, child))
    if best_key is not None:
        return _plain(_moves(parents, best_key))
    if turn_key is not None:  # nothing improves: turning up a card at least shows more
        return _plain(_moves(parents, turn_key))
    if view.deal_refusal() is None:
        return [DEAL]
    if ready_key is not None:  # fill the empty columns as well as can be, then deal
        line = _moves(parents, ready_key)
        if _turns_up(parents, ready_key):
            return _plain(line)  # a card turns up on the way: look again after it
        return _plain(line) + [DEAL]
    return []


def _turns_up(parents: dict, key) -> bool:
    """Whether the line to ``key`` turns up a card."""
    while True:
        parent, _, flipped = parents[key]
        if parent is None:
            return False
        if flipped:
            return True
        key = parent


def _plain(moves: list) -> list[Move]:
    return [Move(s, t, k) for s, t, k in moves]


def play_round(game: Game, budget: int = PLAN_NODES) -> bool:
    """Play ``game`` to its end as the fair bot (never undoing); True when it was won.

    The bot sees only ``game.view()``; ``game`` itself is only played on."""
    actions = 0
    while not game.won and actions < MAX_ACTIONS:
        moves = plan(Game.from_text(game.view()), budget)
        if not moves:
            break
        for m in moves:
            played = game.play(m)
            actions += 1
            if played.turned_up or played.dealt:
                break  # something new is in sight: plan again
    return game.won


def play_hints(game: Game) -> bool:
    """Play the hint (SPEC §4) until it has nothing or the round is won; True when won.
    SPEC §4 says following the hint always ends; a guard of ``MAX_ACTIONS`` keeps a bench
    from hanging if a hint ever loops (raises RuntimeError: a bug to report, not a loss)."""
    actions = 0
    while not game.won:
        move = game.hint()
        if move is None:
            break
        game.play(move)
        actions += 1
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"the hint looped: {actions} actions without an end")
    return game.won


__all__ = ["plan", "play_round", "play_hints", "score", "PLAN_NODES", "LEVELS"]
