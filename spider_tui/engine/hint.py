"""The fixed-order hint (SPEC §4): one move, never random, no look-ahead.

For a candidate move of a group of ``k`` cards from column S to column T:
reveals (the card left exposed in S was face down), completes (a K→A run forms on T),
empties (S becomes empty and T was not empty), extends (T's exposed card has the group's
suit), splits (the card left exposed in S is face up, same suit and one rank higher).

Never proposed: a split (unless it completes); a sideways move (reveals, extends, empties and
completes nothing), except the move that fills the LAST empty column while the stock has
cards and S does not become empty.

Tiers: 1 completes · 2 reveals onto a non-empty column · 3 empties · 4 extends ·
5 reveals into an empty column · 6 fills the last empty column · 7 deal · 8 nothing.
Within a tier: extending first, more cards first, lower S, lower T.
"""

from __future__ import annotations

from .game import DEAL, RUN, Game, Move


def best_hint(g: Game) -> Move | None:
    cols, down = g.columns, g.down
    n = len(cols)
    runs = [g.run_length(i) for i in range(n)]
    empties = [i for i in range(n) if not cols[i]]
    best_key = None
    best = None
    for s in range(n):
        run = runs[s]
        if not run:
            continue
        src = cols[s]
        length = len(src)
        exposed = src[-1]
        for t in range(n):
            if t == s:
                continue
            dst = cols[t]
            if dst:
                top = dst[-1]
                k = (top & 15) - (exposed & 15)
                if not 1 <= k <= run:
                    continue
                lead = src[-k]
                extends = (top >> 4) == (lead >> 4)
                completes = extends and k + runs[t] >= RUN
            else:
                k = run  # a shorter group into an empty column would split
                extends = completes = False
            left = length - k  # cards left in S
            reveals = left > 0 and down[s] == left
            splits = k < run
            if splits and not completes:
                continue
            if completes:
                tier = 1
            elif reveals and dst:
                tier = 2
            elif left == 0 and dst:
                tier = 3
            elif extends:
                tier = 4
            elif reveals:
                tier = 5
            elif not dst and len(empties) == 1 and g.stock and left > 0:
                tier = 6
            else:
                continue  # sideways
            key = (tier, not extends, -k, s, t)
            if best_key is None or key < best_key:
                best_key, best = key, (s, t, k)
    if best is not None:
        s, t, k = best
        return Move(s + 1, t + 1, k)
    if g.deal_refusal() is None:
        return DEAL
    return None
