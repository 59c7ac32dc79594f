"""A lean position for search (SPEC §14): the same rules as ``Game``, in immutable bytes.

The solver makes millions of positions; ``Game`` is built for one round with undo, so search
uses this smaller form instead (checked against ``Game`` move for move by a property test):

- a **column** is ``bytes``: byte 0 is its face-down count, the rest its cards bottom first
  (a card is ``suit * 16 + rank`` as in ``cards.py``); ``b"\\x00"`` is an empty column;
- a **node** is ``(columns, runs, dealt)``: a tuple of columns, a tuple with the length of the
  same-suit run at each column's exposed end, and how many stock rows have been dealt;
- a **Board** holds what never changes in a round: the stock rows, whether the stock deals
  onto empty columns, and the card total (to count completed runs).

A move is ``(s, t, k)`` (0-based columns, ``k`` cards) or ``None`` for the deal.  A child shares
every unchanged column with its parent, so making one costs two small ``bytes`` objects.

>>> from spider_tui.engine import Game
>>> board, node = from_game(Game.new(1, suits=1))
>>> move_text(None), move_text((2, 6, 1))
('deal', '3>7:1')
>>> board.is_won(node)
False
"""

from __future__ import annotations

from collections.abc import Iterator

from .game import RUN, Game

Column = bytes
Node = tuple[tuple[Column, ...], tuple[int, ...], int]
LeanMove = tuple[int, int, int] | None

EMPTY = b"\x00"
UNSEEN = 0  # a face-up card nobody has seen yet (the fair bot's view); rank 0 takes nothing


class Board:
    """The parts of a round that no move changes."""

    __slots__ = ("rows", "onto_empty", "total", "width", "stock_after")

    def __init__(self, rows: tuple[bytes, ...], onto_empty: bool, total: int, width: int):
        self.rows = rows  # stock rows in dealing order; the last may be short
        self.onto_empty = onto_empty  # the stock deals onto empty columns (Relaxed)
        self.total = total  # cards on table + stock + 13 × done at the start
        self.width = width  # columns on the table
        # cards left in the stock after d rows were dealt
        self.stock_after = tuple(sum(map(len, rows[d:])) for d in range(len(rows) + 1))

    def stock_left(self, node: Node) -> int:
        return self.stock_after[node[2]]

    def done(self, node: Node) -> int:
        """Completed runs in ``node``."""
        on_table = sum(map(len, node[0])) - self.width
        return (self.total - on_table - self.stock_after[node[2]]) // RUN

    def is_won(self, node: Node) -> bool:
        return node[2] == len(self.rows) and node[0].count(EMPTY) == self.width

    def can_deal(self, node: Node) -> bool:
        # An empty column is exactly EMPTY (no face-down cards, no cards).
        return node[2] < len(self.rows) and (self.onto_empty or EMPTY not in node[0])


def run_length(col: Column) -> int:
    """Length of the face-up same-suit descending run at the end of ``col``."""
    i = len(col) - 1
    if i == 0:
        return 0
    lo = col[0] + 1  # index of the first face-up card
    c = col[i]
    while i > lo and col[i - 1] == c + 1:
        c += 1
        i -= 1
    return len(col) - i


def from_game(g: Game) -> tuple[Board, Node]:
    """The lean form of ``g`` (classic moves: not Scorpion, no jokers)."""
    if g.rules.scorpion or g.rules.joker:
        raise ValueError("the lean position plays classic moves only (not Scorpion, no jokers)")
    cols = tuple(bytes([d]) + bytes(cards) for cards, d in zip(g.columns, g.down))
    n = g.deal_size
    rows = tuple(bytes(g.stock[i:i + n]) for i in range(0, len(g.stock), n))
    board = Board(rows, g.rules.deals_onto_empty, g.card_count(), len(cols))
    return board, (cols, tuple(run_length(c) for c in cols), 0)


def _settle(col: Column, run: int) -> tuple[Column, int, int]:
    """Remove a completed K→A run at the end of ``col`` (whose end run is ``run`` long) and
    turn up a card left face down; returns (column, run, runs completed)."""
    if run < RUN:
        return col, run, 0
    col = col[:-RUN]
    if len(col) == 1:
        return col, 0, 1
    d = col[0]
    if d == len(col) - 1:
        return bytes((d - 1,)) + col[1:], 1, 1
    return col, run_length(col), 1


def play_move(node: Node, s: int, t: int, k: int) -> tuple[Node, int, int]:
    """Move ``k`` cards from column ``s`` to ``t`` (legal, 0-based); returns (child, cards
    turned up, runs completed)."""
    cols, runs, dealt = node
    src, dst = cols[s], cols[t]
    moved = src[-k:]
    rest = src[:-k]
    flipped = 0
    left = len(rest) - 1
    if left == 0:
        rs = 0
    elif rest[0] == left:  # every card left is face down: turn the last one up
        rest = bytes((left - 1,)) + rest[1:]
        rs = 1
        flipped = 1
    elif k < runs[s]:
        rs = runs[s] - k
    else:
        rs = run_length(rest)
    new = dst + moved
    rt = runs[t] + k if len(dst) > 1 and dst[-1] == moved[0] + 1 else k
    new, rt, completed = _settle(new, rt)
    if completed and new[0] < dst[0]:
        flipped += 1
    c = list(cols)
    r = list(runs)
    c[s], c[t], r[s], r[t] = rest, new, rs, rt
    return (tuple(c), tuple(r), dealt), flipped, completed


def play_deal(board: Board, node: Node) -> tuple[Node, int]:
    """Deal the next stock row (legal); returns (child, runs completed)."""
    cols, runs, dealt = node
    row = board.rows[dealt]
    c = list(cols)
    r = list(runs)
    completed = 0
    for i, card in enumerate(row):
        col = cols[i]
        run = runs[i] + 1 if len(col) > 1 and col[-1] == card + 1 else 1
        col, run, done = _settle(col + bytes((card,)), run)
        c[i], r[i] = col, run
        completed += done
    return (tuple(c), tuple(r), dealt + 1), completed


def legal_moves(board: Board, node: Node) -> Iterator[LeanMove]:
    """Every legal move, in ``Game.legal_moves()`` order: groups (every size into an empty
    column), then the deal."""
    cols, runs, _ = node
    n = len(cols)
    for s in range(n):
        run = runs[s]
        if not run:
            continue
        exposed = cols[s][-1] & 15
        for t in range(n):
            if t == s:
                continue
            dst = cols[t]
            if len(dst) > 1:
                k = (dst[-1] & 15) - exposed
                if 1 <= k <= run:
                    yield (s, t, k)
            else:
                for k in range(run, 0, -1):
                    yield (s, t, k)
    if board.can_deal(node):
        yield None


def play(board: Board, node: Node, move: LeanMove) -> Node:
    """The child after ``move`` (legal)."""
    if move is None:
        return play_deal(board, node)[0]
    return play_move(node, *move)[0]


def move_text(move: LeanMove) -> str:
    """SPEC §3 move text: ``3>7:2`` (1-based) or ``deal``."""
    if move is None:
        return "deal"
    s, t, k = move
    return f"{s + 1}>{t + 1}:{k}"


def to_game_columns(node: Node) -> list[tuple[list[int], int]]:
    """(cards, face-down count) per column, as ``Game.columns`` / ``Game.down`` hold them."""
    return [(list(c[1:]), c[0]) for c in node[0]]


__all__ = [
    "Board", "Node", "EMPTY", "UNSEEN", "run_length", "from_game", "play_move", "play_deal",
    "legal_moves", "play", "move_text", "to_game_columns",
]
