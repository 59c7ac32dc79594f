"""The fixed-order hint (SPEC §4): one move, never random, no look-ahead.

For a candidate move of a group of ``k`` cards from column S to column T:
reveals (the card left exposed in S was face down), completes (a K→A run forms on T),
empties (S becomes empty and T was not empty; except while the stock has cards and no other
column is empty: that would only block the deal, and the tier-6 fill would move the group
straight back, a loop), extends (T's exposed card has the group's suit), splits (the card left
exposed in S is face up, same suit and one rank higher).

Following the hint never repeats a position: between deals, reveals and completed runs every
proposed move raises 2 × (same-suit joins) + (empty columns) by at least 1, except a fill (−1),
after which only an extending move that empties its column (+3) makes room for another fill.

Never proposed: a split (unless it completes); a sideways move (reveals, extends, empties and
completes nothing), except the move that fills the LAST empty column while the stock has
cards and S does not become empty.

Tiers: 1 completes · 2 reveals onto a non-empty column · 3 empties · 4 extends ·
5 reveals into an empty column · 6 fills the last empty column · 7 deal · 8 nothing.
Within a tier: extending first, more cards first, lower S, lower T.

Tier 6 exists to let the stock deal again, so it applies only where an empty column blocks the
deal (not under Relaxed or Scorpion).  Under Scorpion the candidates are Scorpion's moves (onto
the same suit only, any face-up group, Kings into empty columns); every move onto a card then
extends, and "completes" also counts a run left complete at the source's new end.
"""

from __future__ import annotations

from . import scorpion
from .moves import DEAL, RUN, Move
from .position import Position


def best_hint(g: Position) -> Move | None:
    if g.rules.scorpion:
        return scorpion_hint(g)
    cols, down = g.columns, g.down
    n = len(cols)
    runs = [g.run_length(i) for i in range(n)]
    empties = [i for i in range(n) if not cols[i]]
    # Emptying a column while the stock waits and no other column is empty only blocks the deal.
    may_empty = not (g.stock and not empties)
    fills = len(empties) == 1 and bool(g.stock) and not g.rules.relaxed  # tier 6 can apply
    # The columns by the rank of their exposed card: a group of k cards whose exposed card has
    # rank r goes onto exposed rank r + k (``group_fitting_onto``), so only those are looked at.
    onto: dict[int, list[int]] = {}
    for t in range(n):
        if cols[t]:
            onto.setdefault(cols[t][-1] & 15, []).append(t)
    best_key = None
    best = None
    for s in range(n):
        run = runs[s]
        if not run:
            continue
        src = cols[s]
        length = len(src)
        low = src[-1] & 15
        for k in range(1, run + 1):
            targets = onto.get(low + k)
            if targets is None:
                continue
            lead_suit = src[-k] >> 4
            left = length - k  # cards left in S
            reveals = left > 0 and down[s] == left
            empties_s = left == 0 and may_empty
            for t in targets:  # never S itself: its exposed rank is ``low``
                extends = (cols[t][-1] >> 4) == lead_suit
                completes = extends and k + runs[t] >= RUN
                if k < run and not completes:
                    continue  # splits
                # _tier(completes, reveals, empties_s, True, extends, False), inline: the hot loop
                tier = 1 if completes else 2 if reveals else 3 if empties_s else 4 if extends else 0
                if not tier:
                    continue  # sideways
                key = (tier, not extends, -k, s, t)
                if best_key is None or key < best_key:
                    best_key, best = key, (s, t, k)
        if empties:
            k = run  # a shorter group into an empty column would split
            left = length - k
            reveals = left > 0 and down[s] == left
            tier = 5 if reveals else 6 if fills and left > 0 else 0  # _tier onto an empty column
            if tier:
                for t in empties:
                    key = (tier, True, -k, s, t)
                    if best_key is None or key < best_key:
                        best_key, best = key, (s, t, k)
    return _answer(g, best)


def _tier(completes: bool, reveals: bool, empties: bool, onto_card: bool, extends: bool, fills_last: bool) -> int | None:
    """The tier of a non-splitting candidate (1 best), or None for a sideways move."""
    if completes:
        return 1
    if reveals and onto_card:
        return 2
    if empties and onto_card:
        return 3
    if extends:
        return 4
    if reveals:
        return 5
    if fills_last:
        return 6
    return None


def _answer(g: Position, best: tuple[int, int, int] | None) -> Move | None:
    """The chosen move, else the deal (tier 7), else nothing (tier 8)."""
    if best is not None:
        s, t, k = best
        return Move(s, t, k)
    if g.deal_refusal() is None:
        return DEAL
    return None


def _run_ending_at(cards: list[int], lo: int, end: int) -> int:
    """Length of the same-suit descending run that ends at ``cards[end - 1]``, not below ``lo``."""
    i = end - 1
    while i > lo and cards[i - 1] == cards[i] + 1:
        i -= 1
    return end - i


def scorpion_hint(g: Position) -> Move | None:
    """The same tiers over Scorpion's moves (no tier 6: the stock always deals)."""
    cols, down = g.columns, g.down
    runs = [g.run_length(i) for i in range(len(cols))]
    best_key = None
    best = None
    for s, t, k in scorpion.group_moves(g):
        src, dst = cols[s], cols[t]
        left = len(src) - k
        lead = src[left]
        extends = bool(dst)  # Scorpion builds only on the same suit
        completes = extends and k <= runs[s] and k + runs[t] >= RUN
        face_up_left = left > down[s]
        if not completes and face_up_left and src[left - 1] & 15 == 1:
            completes = _run_ending_at(src, down[s], left) >= RUN
        reveals = left > 0 and down[s] == left
        if face_up_left and src[left - 1] == lead + 1 and not completes:
            continue  # splits
        tier = _tier(completes, reveals, left == 0, bool(dst), extends, False)
        if tier is None:
            continue  # sideways
        key = (tier, not extends, -k, s, t)
        if best_key is None or key < best_key:
            best_key, best = key, (s, t, k)
    return _answer(g, best)
