"""Moves under the Scorpion rule (SPEC §10).

- A group lands only on the card of its own suit one rank higher.
- Any face-up card may lead a group: it moves with every card above it, sorted or not.
- Only a King, or a group led by a King, enters an empty column.
- The stock always deals (even with empty columns) — that part lives in ``Game.deal_refusal``.

Functions take a :class:`~.position.Position` (a ``Game``) and 0-based columns, like ``Game``'s
own helpers.
"""

from __future__ import annotations

from .cards import ACE, KING
from .moves import DEAL, Move, Refusal, Why
from .position import Position


def movable(g: Position, col: int) -> int:
    """Every face-up card can move (with the cards above it)."""
    return len(g.columns[col]) - g.down[col]


def group_fitting(g: Position, src: int, dst: int) -> int | None:
    """The largest group of ``src`` that may go onto ``dst``: led by the card of the target's
    suit one rank lower, or by a King for an empty column; ``None`` if there is none."""
    cards = g.columns[src]
    if src == dst or not cards:
        return None
    target = g.columns[dst]
    n = len(cards)
    if target:
        top = target[-1]
        if top & 15 == ACE:
            return None
        want = top - 1
        for i in range(g.down[src], n):
            if cards[i] == want:
                return n - i
    else:
        for i in range(g.down[src], n):
            if cards[i] & 15 == KING:
                return n - i
    return None


def move_refusal(g: Position, s: int, t: int, k: int) -> Refusal | None:
    """Why the group of ``k`` cards from column ``s`` can't go onto ``t`` (0-based), or None.
    Assumes the general checks (columns exist, ``k`` face-up cards) are done."""
    lead = g.columns[s][-k]
    rank = lead & 15
    dst = g.columns[t]
    if dst:
        if dst[-1] == lead + 1:
            return None
        if rank == KING:
            return Refusal(Why.KING_TO_EMPTY)
        return Refusal(Why.OWN_SUIT, rank=rank, onto=rank + 1)
    if rank == KING:
        return None
    return Refusal(Why.KING_LED)


def group_moves(g: Position) -> list[tuple[int, int, int]]:
    """Every legal group move as (source, target, count), 0-based, larger groups first."""
    cols, down = g.columns, g.down
    n = len(cols)
    out: list[tuple[int, int, int]] = []
    for s in range(n):
        src = cols[s]
        if not src:
            continue
        lo, size = down[s], len(src)
        for t in range(n):
            if t == s:
                continue
            dst = cols[t]
            if dst:
                top = dst[-1]
                if top & 15 == ACE:
                    continue
                want = top - 1
                for i in range(lo, size):
                    if src[i] == want:
                        out.append((s, t, size - i))
            else:
                for i in range(lo, size):
                    if src[i] & 15 == KING:
                        out.append((s, t, size - i))
    return out


def legal_moves(g: Position) -> list[Move]:
    out = [Move(s, t, k) for s, t, k in group_moves(g)]
    if g.deal_refusal() is None:
        out.append(DEAL)
    return out


def has_progress_move(g: Position) -> bool:
    """A legal move other than shifting a whole column into an empty one."""
    cols = g.columns
    for s, t, k in group_moves(g):
        if cols[t] or k < len(cols[s]):
            return True
    return False
