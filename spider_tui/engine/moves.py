"""Moves and what they did, the engine's errors and its constants (SPEC §3, §14).

Every engine module imports these from here, so none of them needs ``game`` for its words.

Columns are 0-based in every ``Move`` and ``Played`` field (column 1 is 0), as everywhere in
the engine's API; only the move text (SPEC §3) names them 1 to 10:

>>> str(Move.parse("3 > 7 : 2")), str(DEAL), str(Move.parse("joker>4"))
('3>7:2', 'deal', 'joker>4')
>>> m = Move.parse("3>7:2"); (m.source, m.target, m.count), str(Move(0, 9, 1))
((2, 6, 2), '1>10:1')
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

RUN = 13  # cards in a completed run
JOKER = -1  # Move.source of a joker
DEALT = -2  # Move.source and .target of a deal


class IllegalMove(ValueError):
    """A move the rules don't allow; ``reason`` is a sentence a player can read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class PositionError(ValueError):
    """Position notation that can't be read; the message names the line and the fault."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.fault = message


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move of ``count`` cards from column ``source`` to column ``target`` (0-based: ``3>7``
    is ``Move(2, 6)``), a deal (``DEAL``), or a joker played on column ``target`` (``source ==
    JOKER``, text ``joker>4``).

    ``count`` may be ``None`` in a move read from text like ``3>7``; ``Game`` fills it in.
    """

    source: int = DEALT
    target: int = DEALT
    count: int | None = 0

    def __eq__(self, other: object) -> bool:
        # A Played compares equal to the Move it played.
        if not isinstance(other, Move):
            return NotImplemented
        return (self.source, self.target, self.count) == (other.source, other.target, other.count)

    def __hash__(self) -> int:
        return hash((self.source, self.target, self.count))

    @property
    def is_deal(self) -> bool:
        return self.source == DEALT

    @property
    def is_joker(self) -> bool:
        return self.source == JOKER

    def __str__(self) -> str:
        if self.is_deal:
            return "deal"
        if self.is_joker:
            return f"joker>{self.target + 1}"
        if self.count is None:
            return f"{self.source + 1}>{self.target + 1}"
        return f"{self.source + 1}>{self.target + 1}:{self.count}"

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``3>7:2``, ``3>7``, ``deal`` or ``joker>4``; raises ``IllegalMove`` when it isn't one."""
        t = text.strip().lower()
        if t in ("deal", "d"):
            return DEAL
        compact = "".join(t.split())
        if compact.startswith(("joker>", "j>")):
            col = compact.partition(">")[2]
            if col.endswith(":1"):
                col = col[:-2]
            if col.isdigit():
                return cls(JOKER, int(col) - 1, 1)  # joker>0: the game says how columns are numbered
            raise IllegalMove(f"Can't read {text.strip()!r}: write a joker like joker>4.")
        try:
            head, _, count = t.partition(":")
            src, sep, dst = head.partition(">")
            if not sep:
                raise ValueError
            n = int(count) if count else None
            source, target = int(src), int(dst)
        except ValueError:
            raise IllegalMove(f"Can't read {text.strip()!r}: write a move like 3>7, 3>7:2, deal or joker>4.") from None
        if source < 1 or target < 1:
            raise IllegalMove("Columns are numbered from 1.")
        m = cls(source - 1, target - 1, n)
        if n is not None and n < 1:
            raise IllegalMove("A move takes at least one card.")
        return m


DEAL = Move(DEALT, DEALT, 0)


@dataclass(frozen=True, slots=True, eq=False)
class Played(Move):
    """What ``Game.play`` did: the complete ``Move`` (it compares equal to it) and what the
    action caused (SPEC §14).

    - ``turned_up``: ``(column, card)`` for every face-down card that turned face up, in the
      order it happened (0-based columns; ``UNKNOWN`` in a view until the game is told).
    - ``dealt``: the row a deal brought, column 1 first (``UNKNOWN`` cards in a view).
    - ``completed``: ``(column, suit)`` (0-based) for every K→A run that left the table.
    - ``points``: the score this action earned (0 without the Scoring rule; a win's bonus included).
    """

    turned_up: tuple[tuple[int, Card], ...] = ()
    dealt: tuple[Card, ...] = ()
    completed: tuple[tuple[int, int], ...] = ()
    points: int = 0

    @property
    def move(self) -> Move:
        """The plain Move."""
        return Move(self.source, self.target, self.count)
