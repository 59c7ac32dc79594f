"""Every Palast message, both ways (SPEC §13, docs/protocol.md): one definition per message.

A message is a dataclass with its wire ``TYPE``, its fields and their types; ``to_json()`` makes
the JSON object the wire carries and ``read_client`` / ``read_server`` make the typed message
from one.  The server builds what it sends from these classes; the client (``PalastClient``,
the session, the bots) reads what it receives through ``read_server``, which checks every field
against the same definitions: a value of the wrong type from a hostile or broken server is
refused (``BadMessage``), or, for a field that has a default, left at the default; it never
crashes a reader.  Strings are not made visible here: text from the network goes through
``safe_text`` where it is shown.

A field with a default is optional on the wire (docs/protocol.md marks most of them *(more)*);
``flag()`` fields are left out of the JSON while they hold their default (``bot: true`` only
for a house bot, ``seconds`` only when solved, ``id`` only on answers).  Fields a reader
doesn't know are ignored (SPEC §13: clients must ignore fields they don't know).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, Union

MAX_INT = 2**53


class BadMessage(ValueError):
    """A message (or a part of one) that doesn't fit its definition; the text says where."""


def flag(default: Any = None) -> Any:
    """A field left out of the JSON while it holds ``default``."""
    return field(default=default, metadata={"omit": True})


def many() -> Any:
    """A list field, ``[]`` when missing."""
    return field(default_factory=list)


# ---------------------------------------------------------------------------- parts of messages
@dataclass(kw_only=True)
class Part:
    """A JSON object inside a message (a table, a standing row …)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("omit") and value == f.default:
                continue
            out[f.name] = _dump(value)
        return out

    @classmethod
    def from_json(cls: type[P], obj: Any) -> P:
        """The part from a JSON object; raises ``BadMessage``.  A field of the wrong type (or
        missing) takes its default when it has one."""
        if not isinstance(obj, dict):
            raise BadMessage(f"{cls.__name__}: not an object")
        hints = _hints(cls)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in obj:
                try:
                    values[f.name] = _load(hints[f.name], obj[f.name], f.name)
                    continue
                except BadMessage:
                    if not _has_default(f):
                        raise
            elif not _has_default(f):
                raise BadMessage(f"{cls.__name__}: '{f.name}' is missing")
        return cls(**values)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))


P = TypeVar("P", bound=Part)


@dataclass(kw_only=True)
class Seated(Part):
    player: str
    bot: bool = flag(False)
    left: bool = flag(False)


@dataclass(kw_only=True)
class TableInfo(Part):
    """A table object (the lobby, ``joined``, ``table``).  Every field but ``id`` has a default a
    screen can show, so one odd value doesn't hide a table."""

    id: int
    host: str | None = None
    suits: int = 1
    rules: str = "classic"
    rounds: int = 1
    round: int = 0
    seats: int = 0
    players: list[str] = many()
    state: str = "waiting"
    private: bool = False
    training: bool = False
    standard: bool = False
    round_seconds: int = 0
    #: the pause after a round_over before the next round starts at the latest
    between_seconds: float | None = flag(None)
    #: a standard table's start wait after its second player sat down
    start_seconds: float | None = flag(None)
    seated: list[Seated] = many()


@dataclass(kw_only=True)
class TurnedUp(Part):
    column: int
    card: str


@dataclass(kw_only=True)
class Standing(Part):
    player: str
    score: int = 0
    total: int = 0
    solved: bool = False
    moves: int = 0
    seconds: float | None = None
    state: str | None = flag(None)
    bot: bool = flag(False)


@dataclass(kw_only=True)
class Ranked(Part):
    player: str
    total: int = 0
    place: int = 0


@dataclass(kw_only=True)
class LeagueRow(Part):
    name: str
    rating: float = 0.0
    tables: int = 0
    wins: int = 0
    experience: int = 0
    place: int | None = flag(None)


# ---------------------------------------------------------------------------- messages
@dataclass(kw_only=True)
class Message(Part):
    """One message: ``TYPE`` on the wire; ``id`` ties an answer to its request."""

    TYPE: ClassVar[str] = ""
    id: int | None = flag(None)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, **super().to_json()}


# -- client → server
@dataclass(kw_only=True)
class Hello(Message):
    TYPE = "hello"
    protocol: int
    name: str
    token: str | None
    #: the language the client reads the server's reasons in (SPEC §17): "de" or "en"; absent: English
    lang: str | None = flag(None)


@dataclass(kw_only=True)
class ListTables(Message):
    TYPE = "tables"
    page: int = 0


@dataclass(kw_only=True)
class Open(Message):
    TYPE = "open"
    suits: int
    rules: str
    rounds: int
    seats: int
    private: bool


@dataclass(kw_only=True)
class Join(Message):
    TYPE = "join"
    table: int | None = flag(None)
    code: str | None = flag(None)


@dataclass(kw_only=True)
class Leave(Message):
    TYPE = "leave"


@dataclass(kw_only=True)
class Start(Message):
    TYPE = "start"


@dataclass(kw_only=True)
class Ready(Message):
    TYPE = "ready"


@dataclass(kw_only=True)
class Play(Message):
    TYPE = "play"
    move: str


@dataclass(kw_only=True)
class AskLeague(Message):
    TYPE = "league"


# -- server → client: answers
@dataclass(kw_only=True)
class Welcome(Message):
    TYPE = "welcome"
    name: str
    token: str | None = None


@dataclass(kw_only=True)
class Tables(Message):
    TYPE = "tables"
    tables: list[TableInfo] = many()
    page: int = 0
    pages: int = 1
    total: int = 0


@dataclass(kw_only=True)
class Joined(Message):
    TYPE = "joined"
    table: TableInfo
    code: str | None = None


@dataclass(kw_only=True)
class Left(Message):
    TYPE = "left"
    table: int


@dataclass(kw_only=True)
class Started(Message):
    TYPE = "started"
    table: int


@dataclass(kw_only=True)
class ReadyTaken(Message):
    TYPE = "ready"
    table: int
    round: int


@dataclass(kw_only=True)
class Played(Message):
    TYPE = "played"
    move: str
    position: str
    score: int | None
    moves: int = 0
    state: str = "playing"
    turned_up: list[TurnedUp] = many()
    dealt: list[str] = many()
    completed: list[int] = many()


@dataclass(kw_only=True)
class League(Message):
    TYPE = "league"
    players: list[LeagueRow] = many()
    total: int = 0
    me: LeagueRow | None = None


@dataclass(kw_only=True)
class Refused(Message):
    TYPE = "refused"
    reason: str = ""


@dataclass(kw_only=True)
class Error(Message):
    TYPE = "error"
    reason: str = ""


# -- server → client: events
@dataclass(kw_only=True)
class Round(Message):
    TYPE = "round"
    table: int
    round: int
    position: str
    ends_at: float | None = None


@dataclass(kw_only=True)
class Progress(Message):
    TYPE = "progress"
    table: int | None = flag(None)
    player: str
    score: int | None = 0
    runs: int = 0
    moves: int = 0
    state: str = "playing"
    seconds: float | None = flag(None)
    bot: bool = flag(False)


@dataclass(kw_only=True)
class RoundOver(Message):
    TYPE = "round_over"
    table: int | None = flag(None)
    round: int
    deal: int | str | None = None
    standings: list[Standing] = many()


@dataclass(kw_only=True)
class TableOver(Message):
    TYPE = "table_over"
    table: int | None = flag(None)
    ranking: list[Ranked] = many()


@dataclass(kw_only=True)
class TableChanged(Message):
    TYPE = "table"
    table: TableInfo


@dataclass(kw_only=True)
class Closed(Message):
    TYPE = "closed"
    table: int
    reason: str = ""


CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, ListTables, Open, Join, Leave, Start, Ready, Play, AskLeague)}
SERVER_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Welcome, Tables, Joined, Left, Started, ReadyTaken, Played, League, Refused, Error,
                          Round, Progress, RoundOver, TableOver, TableChanged, Closed)}
#: The objects inside messages, by the name docs/protocol.md gives them.
PARTS: dict[str, type[Part]] = {"table": TableInfo, "seated": Seated, "turned_up": TurnedUp, "standings": Standing,
                                "ranking": Ranked, "players": LeagueRow}


def fields_of(cls: type[Message]) -> tuple[str, ...]:
    """The wire fields of a message, without ``type`` and ``id``."""
    return tuple(n for n in cls.field_names() if n != "id")


def read_server(obj: Any) -> Message:
    """The typed message a server sent (a decoded JSON value); raises ``BadMessage``."""
    return _read(obj, SERVER_MESSAGES)


def read_client(obj: Any) -> Message:
    """The typed message a client sent, types checked only (``protocol.parse`` checks the rest)."""
    return _read(obj, CLIENT_MESSAGES)


def _read(obj: Any, kinds: dict[str, type[Message]]) -> Message:
    if not isinstance(obj, dict):
        raise BadMessage("a message is a JSON object")
    kind = obj.get("type")
    cls = kinds.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadMessage("unknown message type")
    return cls.from_json(obj)


# ---------------------------------------------------------------------------- the checker
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _has_default(f: dataclasses.Field) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def _load(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        for option in typing.get_args(tp):
            try:
                return _load(option, value, where)
            except BadMessage:
                pass
        raise BadMessage(f"'{where}' has the wrong type")
    if origin is list:
        if not isinstance(value, list):
            raise BadMessage(f"'{where}' must be a list")
        (item,) = typing.get_args(tp)
        out = []
        for v in value:  # one bad entry of a list is left out, not the whole message
            try:
                out.append(_load(item, v, where))
            except BadMessage:
                pass
        return out
    if tp is type(None):
        if value is not None:
            raise BadMessage(f"'{where}' must be null")
        return None
    if tp is bool:
        if not isinstance(value, bool):
            raise BadMessage(f"'{where}' must be true or false")
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool) or not -MAX_INT < value < MAX_INT:
            raise BadMessage(f"'{where}' must be a whole number")
        return value
    if tp is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise BadMessage(f"'{where}' must be a number")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise BadMessage(f"'{where}' must be a string")
        return value
    if isinstance(tp, type) and issubclass(tp, Part):
        return tp.from_json(value)
    raise TypeError(f"no reader for {tp!r}")  # pragma: no cover - a definition's mistake


def _dump(value: Any) -> Any:
    if isinstance(value, Part):
        return value.to_json()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value
