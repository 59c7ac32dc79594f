"""What a position shows, as the engine's readers see it (SPEC §3, §4, §10).

The hint, Scorpion's moves and the notation read a position through :class:`Position`, not
through ``Game``: ``game`` imports them, so none of them imports ``game`` (no circle, not even
for types).  ``Game`` is the one implementation; a type checker holds it to this face wherever
a ``Game`` is passed as a ``Position``.  :class:`Parts` is what the notation reads out of text,
and what ``Game.from_text`` is made of.

>>> from spider_tui.engine import Game
>>> g: Position = Game.new(1, suits=1)
>>> g.deal_refusal() is None, len(g.columns), g.run_length(0)
(True, 10, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .cards import Card
from .deal import Deal
from .moves import Refusal
from .rules import Rules


class Position(Protocol):
    """A table's cards and counters, read-only, with the two questions the readers ask."""

    @property
    def columns(self) -> list[list[Card]]: ...  # bottom card first
    @property
    def down(self) -> list[int]: ...  # face-down cards per column
    @property
    def stock(self) -> list[Card]: ...  # in dealing order
    @property
    def done(self) -> list[int]: ...  # suits of completed runs
    @property
    def suits(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def deal_number(self) -> Deal | None: ...
    @property
    def moves(self) -> int: ...
    @property
    def jokers_left(self) -> int: ...
    @property
    def score(self) -> int | None: ...

    def run_length(self, col: int) -> int:
        """Length of the face-up same-suit run at the end of column ``col`` (0-based)."""
        ...

    def deal_refusal(self) -> Refusal | None:
        """Why the stock can't deal now, or ``None`` when it can."""
        ...


@dataclass
class Parts:
    """A position as read from notation: what a ``Game`` is made of."""

    columns: list[list[Card]]
    down: list[int]
    stock: list[Card]
    done: list[int]
    suits: int
    rules: Rules
    deal_number: Deal | None
    moves: int
    jokers_left: int | None
    score: int | None
