"""The Palast score (SPEC §10), by suit count 1 / 2 / 4.

| action                                              | 1 suit | 2 suits | 4 suits |
|-----------------------------------------------------|--------|---------|---------|
| a completed run leaves the table                    |   +50  |  +100   |  +150   |
| a face-down card turns up (revealed)                |    +2  |    +3   |    +4   |
| a same-suit join (a card lands on its own suit)     |    +1  |    +2   |    +3   |
| an undo                                             |    −1  |    −1   |    −1   |
| the round is solved: base minus moves (not below 0) |  +300  |  +400   |  +500   |
| each unused joker at the win                        |    +3  |    +3   |    +3   |

A join pays once per card per round: the first time that card comes to lie on its own suit one
rank higher (``Game`` keeps which cards have paid; moving a card off and back pays nothing, only
undoing the action that paid makes it pay again).  An undone action takes its points back (and
the undo itself costs 1).  The initial layout
scores its joins too ("schon beim Verteilen der Karten"), which only happens when cards are
dealt face up (Open, Simple Simon).
"""

from __future__ import annotations

from .cards import Card

RUN_POINTS = {1: 50, 2: 100, 4: 150}
REVEAL_POINTS = {1: 2, 2: 3, 4: 4}
JOIN_POINTS = {1: 1, 2: 2, 4: 3}
WIN_POINTS = {1: 300, 2: 400, 4: 500}
JOKER_POINTS = 3
UNDO_POINTS = -1


def action_points(suits: int, runs: int = 0, flips: int = 0, joins: int = 0) -> int:
    """Points for one action that completed ``runs``, revealed ``flips`` cards and made ``joins``."""
    return runs * RUN_POINTS[suits] + flips * REVEAL_POINTS[suits] + joins * JOIN_POINTS[suits]


def win_bonus(suits: int, moves: int, jokers_left: int) -> int:
    """Bonus for a solved round: base minus the moves it took (never negative) + 3 per unused joker."""
    return max(0, WIN_POINTS[suits] - moves) + JOKER_POINTS * jokers_left


def layout_joins(columns: list[list[Card]], down: list[int]) -> int:
    """Same-suit joins already in a layout: face-up cards lying on their own suit one rank higher."""
    joins = 0
    for cards, d in zip(columns, down):
        for i in range(max(d, 0) + 1, len(cards)):
            if cards[i - 1] == cards[i] + 1:
                joins += 1
    return joins
