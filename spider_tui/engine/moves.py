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

from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from enum import Enum

from .cards import SUIT_NAMES, Card, rank_name, with_article

RUN = 13  # cards in a completed run
JOKER = -1  # Move.source of a joker
DEALT = -2  # Move.source and .target of a deal


class Why(Enum):
    """Why the engine refuses (the ``code`` of a ``Refusal``): what a program decides on and
    what a translation says by, never the English words.  The parameters each one carries are
    in the comments (numbers as the sentence says them: columns 1-based, ranks 1 Ace … 13 King,
    ``suit`` an index of ``SUIT_NAMES``)."""

    WON = "won"  # the round is won
    OVER = "over"  # the round is over (given up)
    STOCK_EMPTY = "stock_empty"
    NO_STOCK = "no_stock"  # the rules have no stock (Simple Simon)
    FILL_COLUMNS = "fill_columns"  # a deal needs every column filled
    NO_COLUMN = "no_column"  # columns: how many there are
    FROM_ONE = "from_one"  # a move text names a column 0 (or less)
    OWN_COLUMN = "own_column"  # source and target are one column
    EMPTY = "empty"  # column
    AT_LEAST_ONE = "at_least_one"  # a move of no cards
    FEW_FACE_UP = "few_face_up"  # column, count: the face-up cards it has
    UNSEEN = "unseen"  # column: its card is not known (a view)
    NOT_A_RUN = "not_a_run"  # the group is no same-suit run
    KING_TO_EMPTY = "king_to_empty"  # a King onto a card
    NO_FIT = "no_fit"  # rank (the group's lead), onto (the rank it goes on)
    OWN_SUIT = "own_suit"  # rank, onto (Scorpion: only on its own suit)
    KING_LED = "king_led"  # Scorpion: only a King's group into an empty column
    NO_JOKERS = "no_jokers"  # the rules have no jokers
    NONE_LEFT = "none_left"  # no jokers left
    ON_ACE = "on_ace"  # a joker onto an Ace
    VIEW = "view"  # a view (unseen cards): only the full game knows a joker's card
    NO_CARD = "no_card"  # rank (and suit, Scorpion): no such card is left for the joker
    UNREADABLE_JOKER = "unreadable_joker"  # text: a joker move that can't be read
    UNREADABLE = "unreadable"  # text: a move that can't be read


#: The English sentence of every code (``Refusal`` fills it in; ``{A_card}``, ``{an_onto}``,
#: ``{wanted}`` and ``{s}`` are words made from the parameters).  Other languages say a refusal
#: by its code and parameters (``spider_tui.engine_words``), never by these words.
ENGLISH: dict[Why, str] = {
    Why.WON: "The round is won.",
    Why.OVER: "The round is over.",
    Why.STOCK_EMPTY: "The stock is empty.",
    Why.NO_STOCK: "Simple Simon has no stock.",
    Why.FILL_COLUMNS: "Fill every empty column before dealing.",
    Why.NO_COLUMN: "Columns are numbered 1 to {columns}.",
    Why.FROM_ONE: "Columns are numbered from 1.",
    Why.OWN_COLUMN: "A group can't move onto its own column.",
    Why.EMPTY: "Column {column} is empty.",
    Why.AT_LEAST_ONE: "A move takes at least one card.",
    Why.FEW_FACE_UP: "Column {column} has only {count} face-up card{s}.",
    Why.UNSEEN: "Column {column}'s card isn't known yet.",
    Why.NOT_A_RUN: "Only a same-suit run moves together.",
    Why.KING_TO_EMPTY: "A King goes only into an empty column.",
    Why.NO_FIT: "{A_card} goes on {an_onto}.",
    Why.OWN_SUIT: "{A_card} goes only on {an_onto} of its own suit.",
    Why.KING_LED: "Only a King, or a group led by a King, goes into an empty column.",
    Why.NO_JOKERS: "This round is played without jokers.",
    Why.NONE_LEFT: "No jokers left.",
    Why.ON_ACE: "Nothing goes on an Ace.",
    Why.VIEW: "A view can't play a joker: only the full game knows its card (ask the server).",
    Why.NO_CARD: "No {wanted} is left in the stock or on the table for the joker.",
    Why.UNREADABLE_JOKER: "Can't read {text!r}: write a joker like joker>4.",
    Why.UNREADABLE: "Can't read {text!r}: write a move like 3>7, 3>7:2, deal or joker>4.",
}


def english(code: Why, params: Mapping[str, int | str]) -> str:
    """The English sentence of ``code`` with ``params``.

    >>> english(Why.NO_FIT, {"rank": 7, "onto": 8}), english(Why.FEW_FACE_UP, {"column": 4, "count": 1})
    ('A 7 goes on an 8.', 'Column 4 has only 1 face-up card.')
    """
    words: dict[str, object] = dict(params)
    if "count" in params:
        words["s"] = "" if params["count"] == 1 else "s"
    rank = params.get("rank")
    if isinstance(rank, int):
        a = with_article(rank)
        words["A_card"] = a[:1].upper() + a[1:]
        suit = params.get("suit")
        words["wanted"] = rank_name(rank) + (f" of {SUIT_NAMES[suit]}" if isinstance(suit, int) else "")
    onto = params.get("onto")
    if isinstance(onto, int):
        words["an_onto"] = with_article(onto)
    return ENGLISH[code].format(**words)


class Refusal(str):
    """Why the engine refuses: it reads as its English sentence (``str(r)``, the words as
    always), and carries its ``code`` (a ``Why``) and the sentence's ``params``, for a program
    to decide on and a translation to say.

    >>> r = Refusal(Why.EMPTY, column=3)
    >>> r, r.code, r.params
    ('Column 3 is empty.', <Why.EMPTY: 'empty'>, {'column': 3})
    """

    code: Why
    params: dict[str, int | str]

    def __new__(cls, code: Why, **params: int | str) -> Refusal:
        self = super().__new__(cls, english(code, params))
        self.code = code
        self.params = params
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[Why], dict[str, int | str]]:  # copy and pickle
        return (self.code,), dict(self.params)


class IllegalMove(ValueError):
    """A move the rules don't allow; ``reason`` is a sentence a player can read (the engine's
    own: a ``Refusal``, so ``code`` and ``params`` say why; ``None`` and ``{}`` for a plain
    sentence of a caller's)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
        self.code: Why | None = reason.code if isinstance(reason, Refusal) else None
        self.params: dict[str, int | str] = dict(reason.params) if isinstance(reason, Refusal) else {}


class PositionError(ValueError):
    """Position notation that can't be read; the message names the line and the fault."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.fault = message


class Move:
    """A move of ``count`` cards from column ``source`` to column ``target`` (0-based: ``3>7``
    is ``Move(2, 6)``), a deal (``DEAL``), or a joker played on column ``target`` (``source ==
    JOKER``, text ``joker>4``).

    ``count`` may be ``None`` in a move read from text like ``3>7``; ``Game`` fills it in.
    Frozen.  (A plain class with slots: as a frozen dataclass with slots it, and ``Played``,
    took ~3 ms to make at every start, SPEC §11.)
    """

    __slots__ = ("source", "target", "count")
    source: int
    target: int
    count: int | None

    def __init__(self, source: int = DEALT, target: int = DEALT, count: int | None = 0) -> None:
        put = object.__setattr__
        put(self, "source", source)
        put(self, "target", target)
        put(self, "count", count)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple:
        return self.source, self.target, self.count

    def __reduce__(self) -> tuple:
        return type(self), self._fields()  # (pickled for a search in a child process)

    def __repr__(self) -> str:
        names = type(self)._FIELD_NAMES
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(names, self._fields()))})"

    _FIELD_NAMES: tuple[str, ...] = __slots__

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
            raise IllegalMove(Refusal(Why.UNREADABLE_JOKER, text=text.strip()))
        try:
            head, _, count = t.partition(":")
            src, sep, dst = head.partition(">")
            if not sep:
                raise ValueError
            n = int(count) if count else None
            source, target = int(src), int(dst)
        except ValueError:
            raise IllegalMove(Refusal(Why.UNREADABLE, text=text.strip())) from None
        if source < 1 or target < 1:
            raise IllegalMove(Refusal(Why.FROM_ONE))
        m = cls(source - 1, target - 1, n)
        if n is not None and n < 1:
            raise IllegalMove(Refusal(Why.AT_LEAST_ONE))
        return m


DEAL = Move(DEALT, DEALT, 0)


class Played(Move):
    """What ``Game.play`` did: the complete ``Move`` (it compares equal to it) and what the
    action caused (SPEC §14).

    - ``turned_up``: ``(column, card)`` for every face-down card that turned face up, in the
      order it happened (0-based columns; ``UNKNOWN`` in a view until the game is told).
    - ``dealt``: the row a deal brought, column 1 first (``UNKNOWN`` cards in a view).
    - ``completed``: ``(column, suit)`` (0-based) for every K→A run that left the table.
    - ``points``: the score this action earned (0 without the Scoring rule; a win's bonus included).
    """

    __slots__ = ("turned_up", "dealt", "completed", "points")
    turned_up: tuple[tuple[int, Card], ...]
    dealt: tuple[Card, ...]
    completed: tuple[tuple[int, int], ...]
    points: int

    def __init__(self, source: int = DEALT, target: int = DEALT, count: int | None = 0,
                 turned_up: tuple[tuple[int, Card], ...] = (), dealt: tuple[Card, ...] = (),
                 completed: tuple[tuple[int, int], ...] = (), points: int = 0) -> None:
        Move.__init__(self, source, target, count)
        put = object.__setattr__
        put(self, "turned_up", turned_up)
        put(self, "dealt", dealt)
        put(self, "completed", completed)
        put(self, "points", points)

    def _fields(self) -> tuple:
        return self.source, self.target, self.count, self.turned_up, self.dealt, self.completed, self.points

    _FIELD_NAMES = Move._FIELD_NAMES + __slots__

    @property
    def move(self) -> Move:
        """The plain Move."""
        return Move(self.source, self.target, self.count)
