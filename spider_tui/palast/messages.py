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
import json
import math
import types
import typing
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeVar, Union

from spider_tui.engine import Move, rules_named
from spider_tui.engine.cards import SUIT_COUNTS

from spider_tui.palast import names

MAX_INT = 2**53
PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes per message, either way in (SPEC §13)
SUITS = SUIT_COUNTS
ROUNDS = (1, 10)
SEATS = (2, 6)
#: ``play`` words besides §3 move text and ``joker>N``.
PLAY_WORDS = ("deal", "undo", "give up")


class Code(str, Enum):
    """Why the server refused a message or closed a connection: the optional ``code`` of
    ``refused`` and ``error`` beside the player's ``reason`` (docs/protocol.md lists them).  A
    program decides on the code, never on the words (they may be reworded or translated); a
    client ignores a code it doesn't know."""

    BAD_MESSAGE = "bad_message"  # not JSON, an unknown type or field, a value out of its bounds
    BAD_NAME = "bad_name"  # a name that can't be registered
    HELLO_FIRST = "hello_first"  # a message before hello, a binary frame, no hello in time
    ALREADY_HELLO = "already_hello"
    NAME_TAKEN = "name_taken"
    BAD_TOKEN = "bad_token"  # name and token don't match
    TOO_MANY_NAMES = "too_many_names"  # new names from one address
    TOO_MANY = "too_many"  # messages, connections or waiting tables over the limits; the server is full
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    NO_TABLE = "no_table"  # no such table, or no table has that invite code
    PRIVATE = "private"  # a private table: join it with its invite code
    TABLE_FULL = "table_full"
    TABLE_STARTED = "table_started"
    TABLE_FINISHED = "table_finished"
    NOT_HOST = "not_host"
    TOO_FEW = "too_few"  # a table starts with at least two players
    STANDARD = "standard"  # a standard table starts by itself
    NOT_BETWEEN = "not_between"  # 'ready' outside the pause between rounds
    LEFT = "left"  # the player has left that table
    NO_ROUND = "no_round"  # no round in play, the round is over, time is up
    DONE = "done"  # the player solved or gave up this round
    UNDO_OFF = "undo_off"
    JOKER_FINAL = "joker_final"
    NOTHING_TO_UNDO = "nothing_to_undo"
    ILLEGAL_MOVE = "illegal_move"
    TRY_AGAIN = "try_again"  # the server could not do it just now; nothing changed
    ROUND_NOT_OVER = "round_not_over"  # a round's records before its round_over
    NOT_WATCHING = "not_watching"  # 'unwatch' while watching no table
    DAILY_DONE = "daily_done"  # the player had today's try at that suit count
    DAY_NOT_OVER = "day_not_over"  # a daily try's records before its day is over
    UNREACHABLE = "unreachable"  # the client's own: nothing answered at the address (never sent)

    @classmethod
    def read(cls, value: object) -> Code | None:
        """The code a server sent, or None (none, or one this version doesn't know)."""
        try:
            return cls(value)
        except ValueError:
            return None


class Reason(str):
    """A refusal's words (it reads as the text it says) with its ``code`` (the store's answers)."""

    code: Code

    def __new__(cls, text: str, code: Code) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        return self


class Refusal(Exception):
    """A client message that can't be taken: ``reason`` (and ``code``) go back to the client."""

    def __init__(self, reason: str, msg_id: int | None = None, code: Code | None = None):
        super().__init__(reason)
        self.reason = reason
        self.id = msg_id
        # A reason that carries its code (a store's ``Reason``) passes it on; an engine refusal's
        # code is the engine's, not the protocol's: the caller names that one.
        told = getattr(reason, "code", None)
        self.code = code if code is not None else told if isinstance(told, Code) else None


class BadMessage(ValueError):
    """A message (or a part of one) that doesn't fit its definition; the text says where."""


def flag(default: Any = None) -> Any:
    """A field left out of the JSON while it holds ``default``."""
    return field(default=default, metadata={"omit": True})


def many() -> Any:
    """A list field, ``[]`` when missing."""
    return field(default_factory=list)


def wire(default: Any = dataclasses.MISSING, *, omit: bool = False, whole: tuple[int, int] | None = None,
         text: int | None = None, one_of: tuple[Any, ...] | None = None, boolean: bool = False,
         exact: Any = None, bad: str | None = None, missing: str | None = None, nullable: bool = False) -> Any:
    """A client→server field with its bounds (``read_client`` checks them, with these words):
    ``whole=(lo, hi)`` a whole number in range; ``text=n`` a string of at most ``n`` characters
    and no control character; ``one_of`` one of these values; ``boolean`` true or false;
    ``exact`` this very value (``bad``: the refusal); ``missing``: the refusal when it is left
    out (required fields); ``nullable``: null is taken as None."""
    meta = {"omit": omit, "whole": whole, "text": text, "one_of": one_of, "boolean": boolean, "exact": exact,
            "bad": bad, "missing": missing, "nullable": nullable}
    return field(default=default, metadata=meta)


# ---------------------------------------------------------------------------- parts of messages
@dataclass(kw_only=True)
class Part:
    """A JSON object inside a message (a table, a standing row …)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, omit, default in _dumped(type(self)):
            value = getattr(self, name)
            if omit and value == default:
                continue
            out[name] = _dump(value)
        return out

    def _shallow(self) -> dict[str, Any]:
        """``to_json`` one level deep: the parts inside stay parts (``_ENCODE`` writes them)."""
        out: dict[str, Any] = {}
        for name, omit, default in _dumped(type(self)):
            value = getattr(self, name)
            if omit and value == default:
                continue
            out[name] = value
        return out

    @classmethod
    def from_json(cls: type[P], obj: Any) -> P:
        """The part from a JSON object; raises ``BadMessage``.  A field of the wrong type (or
        missing) takes its default when it has one."""
        if not isinstance(obj, dict):
            raise BadMessage(f"{cls.__name__}: not an object")
        values: dict[str, Any] = {}
        for name, load, has_default in _readers(cls):
            if name in obj:
                try:
                    values[name] = load(obj[name], name)
                    continue
                except BadMessage:
                    if not has_default:
                        raise
            elif not has_default:
                raise BadMessage(f"{cls.__name__}: '{name}' is missing")
        return cls(**values)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))


P = TypeVar("P", bound=Part)
M = TypeVar("M", bound="Message")


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
    #: the server's round clock at a Fast table (`spider server --fast-seconds`), for the clients' text
    fast_seconds: int | None = flag(None)
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
class Line(Part):
    """One player's line as a watcher sees it (a ``progress`` without its table)."""

    player: str
    score: int | None = 0
    runs: int = 0
    moves: int = 0
    state: str = "playing"
    seconds: float | None = flag(None)
    bot: bool = flag(False)


@dataclass(kw_only=True)
class DailyEntry(Part):
    """One finished try of a daily board."""

    player: str
    score: int = 0
    moves: int = 0
    seconds: float | None = None
    state: str = ""
    place: int = 0
    bot: bool = flag(False)


@dataclass(kw_only=True)
class DailyBoard(Part):
    """One suit count's daily board: its commitment all day, its deal once the day is over."""

    suits: int
    commitment: str | None = None
    deal: str | None = None
    entries: list[DailyEntry] = many()
    total: int = 0
    playing: int = 0
    me: DailyEntry | None = None


@dataclass(kw_only=True)
class LeagueRow(Part):
    name: str
    rating: float = 0.0
    tables: int = 0
    wins: int = 0
    experience: int = 0
    place: int | None = flag(None)


class Rows(list):  # type: ignore[type-arg]
    """Parts that many messages share (the league's top rows), encoded once: ``text`` is their
    JSON array.  Treat it as frozen: the text is made when the list is."""

    def __init__(self, parts: "list[Any]") -> None:
        super().__init__(parts)
        self.text = json.dumps([_dump(p) for p in parts], separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------- messages
@dataclass(kw_only=True)
class Message(Part):
    """One message: ``TYPE`` on the wire; ``id`` ties an answer to its request."""

    TYPE: ClassVar[str] = ""
    #: ``read_client``: every required field's presence is checked before any value
    PRESENCE_FIRST: ClassVar[bool] = False
    id: int | None = flag(None)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, **super().to_json()}

    def _shallow(self) -> dict[str, Any]:
        out = super()._shallow()
        return {"type": self.TYPE, **out}

    def text(self) -> str:
        """The message as compact JSON, as it goes on the wire (the same text as
        ``json.dumps(self.to_json(), …)``, without building every part's dict first)."""
        return _ENCODE(self._shallow())

    @classmethod
    def precheck(cls, obj: dict, msg_id: int | None) -> None:
        """A client message's checks across its fields, before their values (``Refusal``)."""

    def checked(self: M) -> M:
        """A client message with its values checked together and normalised (``Refusal``)."""
        return self


# -- client → server
@dataclass(kw_only=True)
class Hello(Message):
    TYPE = "hello"
    protocol: int = wire(missing=f"'hello' needs 'protocol' ({PROTOCOL}).", exact=PROTOCOL,
                         bad=f"This server speaks protocol {PROTOCOL} (the whole number {PROTOCOL}).")
    name: str = wire(text=64, missing="'hello' needs a 'name'.")
    token: str | None = wire(None, text=128, nullable=True)
    #: the language the client reads the server's reasons in (SPEC §17): "de" or "en"; absent: English
    lang: str | None = wire(None, text=16, nullable=True, omit=True)

    def checked(self) -> Hello:
        if self.token is not None:
            if not self.name:
                raise Refusal("'hello' needs a 'name'.", self.id)
            return self  # signing in: the name as registered (names from before NFKC still sign in)
        name = names.normal(self.name)  # registering: the name as stored
        problem = names.problem(name)
        if problem:
            raise Refusal(problem, self.id, Code.BAD_NAME)
        return dataclasses.replace(self, name=name)


@dataclass(kw_only=True)
class ListTables(Message):
    TYPE = "tables"
    page: int = wire(0, whole=(0, 10**6))


@dataclass(kw_only=True)
class Open(Message):
    TYPE = "open"
    PRESENCE_FIRST = True
    suits: int = wire(one_of=SUITS, bad="'suits' must be 1, 2 or 4.")
    rules: str = wire(text=120)
    rounds: int = wire(whole=ROUNDS)
    seats: int = wire(whole=SEATS)
    private: bool = wire(boolean=True)

    def checked(self) -> Open:
        try:
            rules = table_rules(self.rules)
        except ValueError as e:
            raise Refusal(str(e), self.id) from None
        return dataclasses.replace(self, rules=rules)


@dataclass(kw_only=True)
class Join(Message):
    TYPE = "join"
    table: int | None = wire(None, omit=True, whole=(1, MAX_INT))
    code: str | None = wire(None, omit=True, text=16)

    @classmethod
    def precheck(cls, obj: dict, msg_id: int | None) -> None:
        if ("table" in obj) == ("code" in obj):
            raise Refusal("'join' needs 'table' (a table id) or 'code' (an invite code).", msg_id)

    def checked(self) -> Join:
        return self if self.code is None else dataclasses.replace(self, code=self.code.strip().upper())


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
    move: str = wire(text=32, missing="'play' needs a 'move'.")

    def checked(self) -> Play:
        self.move = check_move(self.move, self.id)  # a new message, nobody else holds it yet
        return self


@dataclass(kw_only=True)
class AskLeague(Message):
    TYPE = "league"


@dataclass(kw_only=True)
class AskRecords(Message):
    """Every player's record of a finished round (SPEC §16), never before its ``round_over``."""

    TYPE = "records"
    PRESENCE_FIRST = True
    table: int = wire(whole=(1, MAX_INT), missing="'records' needs 'table' and 'round'.")
    round: int = wire(whole=(1, ROUNDS[1]), missing="'records' needs 'table' and 'round'.")


@dataclass(kw_only=True)
class Watch(Message):
    """Watch a running table (SPEC §16): its players' lines live, no position of a running round."""

    TYPE = "watch"
    table: int = wire(whole=(1, MAX_INT), missing="'watch' needs 'table'.")


@dataclass(kw_only=True)
class Unwatch(Message):
    TYPE = "unwatch"


@dataclass(kw_only=True)
class AskDaily(Message):
    """The daily board (SPEC §16): today's (or a past ``day``'s), every suit count or one."""

    TYPE = "daily"
    suits: int | None = wire(None, omit=True, one_of=SUITS, bad="'suits' must be 1, 2 or 4.")
    day: str | None = wire(None, omit=True, text=10)

    def checked(self) -> AskDaily:
        if self.day is not None and not _is_day(self.day):
            raise Refusal("'day' is a UTC date like 2026-12-01.", self.id)
        return self


@dataclass(kw_only=True)
class PlayDaily(Message):
    """Today's one try at the daily table of ``suits`` suits."""

    TYPE = "daily_play"
    suits: int = wire(one_of=SUITS, bad="'suits' must be 1, 2 or 4.", missing="'daily_play' needs 'suits' (1, 2 or 4).")


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

    def text(self) -> str:
        """As ``Message.text``; rows given as ``Rows`` (one list many answers share) are encoded
        once, not at every answer."""
        players = self.players
        if not isinstance(players, Rows):
            return super().text()
        head = '{"type":"league"' if self.id is None else f'{{"type":"league","id":{json.dumps(self.id)}'
        me = "null" if self.me is None else json.dumps(self.me.to_json(), separators=(",", ":"), ensure_ascii=False)
        return f'{head},"players":{players.text},"total":{json.dumps(self.total)},"me":{me}}}'


@dataclass(kw_only=True)
class Records(Message):
    TYPE = "records"
    #: each player's record of the round, the text of docs/records.md
    records: list[str] = many()
    table: int | None = flag(None)
    round: int | None = flag(None)


@dataclass(kw_only=True)
class Daily(Message):
    TYPE = "daily"
    day: str
    #: when the day is over (unix seconds): its deals are told then
    ends_at: float = 0.0
    boards: list[DailyBoard] = many()


@dataclass(kw_only=True)
class Watching(Message):
    """The answer to ``watch``: the table, and each player's line of the round in play (or of
    the last one).  Then the table's ``progress``, ``round_over``, ``table_over`` and ``table``
    events follow, and ``watch_round`` when a round starts."""

    TYPE = "watching"
    table: TableInfo
    lines: list[Line] = many()
    ends_at: float | None = None
    commitment: str | None = None


@dataclass(kw_only=True)
class Unwatched(Message):
    TYPE = "unwatched"
    table: int


@dataclass(kw_only=True)
class Refused(Message):
    TYPE = "refused"
    reason: str = ""
    #: why, for a program (a ``Code`` value; optional: older servers send none)
    code: str | None = flag(None)

    @property
    def why(self) -> Code | None:
        return Code.read(self.code)


@dataclass(kw_only=True)
class Error(Message):
    TYPE = "error"
    reason: str = ""
    code: str | None = flag(None)

    @property
    def why(self) -> Code | None:
        return Code.read(self.code)


# -- server → client: events
@dataclass(kw_only=True)
class Round(Message):
    TYPE = "round"
    table: int
    round: int
    position: str
    ends_at: float | None = None
    commitment: str | None = None  # hex SHA-256 of the deal code told in round_over (palast.commitment)


@dataclass(kw_only=True)
class WatchRound(Message):
    """A round started at the watched table: a ``round`` without any position."""

    TYPE = "watch_round"
    table: int
    round: int
    ends_at: float | None = None
    commitment: str | None = None


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


# -- between server processes (never sent to a client: their ``type`` starts with ``_``)
@dataclass(kw_only=True)
class TableNews(Message):
    """A table was opened, changed seats or closed: the other processes read it again."""

    TYPE = "_table"
    table: int


@dataclass(kw_only=True)
class ActionTaken(Message):
    """An accepted action, replayed on the other processes' copy of the seat's game."""

    TYPE = "_action"
    table: int
    round: int
    player_id: int
    seq: int
    move: str
    at: float


@dataclass(kw_only=True)
class Presence(Message):
    """A player connected to (or left) the sending process."""

    TYPE = "_presence"
    player_id: int
    online: bool
    origin: str = ""


@dataclass(kw_only=True)
class Alive(Message):
    """The sending process is alive, and who is connected to it (``players``: left out when
    there are too many for one notification)."""

    TYPE = "_alive"
    origin: str = ""
    players: list[int] | None = flag(None)


@dataclass(kw_only=True)
class Resync(Message):
    """Re-read everything (an event was too big to announce)."""

    TYPE = "_resync"


INTERNAL_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (TableNews, ActionTaken, Presence, Alive, Resync)}
CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, ListTables, Open, Join, Leave, Start, Ready, Play, AskLeague, AskRecords, Watch, Unwatch,
                              AskDaily, PlayDaily)}
SERVER_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Welcome, Tables, Joined, Left, Started, ReadyTaken, Played, League, Records, Daily, Watching, Unwatched,
                          Refused, Error, WatchRound,
                          Round, Progress, RoundOver, TableOver, TableChanged, Closed)}
#: The objects inside messages, by the name docs/protocol.md gives them.
PARTS: dict[str, type[Part]] = {"table": TableInfo, "seated": Seated, "turned_up": TurnedUp, "standings": Standing,
                                "ranking": Ranked, "players": LeagueRow, "lines": Line,
                                "boards": DailyBoard, "entries": DailyEntry}


def fields_of(cls: type[Message]) -> tuple[str, ...]:
    """The wire fields of a message, without ``type`` and ``id``."""
    return tuple(n for n in cls.field_names() if n != "id")


def read_internal(obj: Any) -> Message:
    """A message between server processes, or a server event passed on (a decoded JSON value);
    raises ``BadMessage``."""
    return _read(obj, INTERNAL_MESSAGES if isinstance(obj, dict) and str(obj.get("type")).startswith("_")
                 else SERVER_MESSAGES)


def read_server(obj: Any) -> Message:
    """The typed message a server sent (a decoded JSON value); raises ``BadMessage``."""
    return _read(obj, SERVER_MESSAGES)


def read_client(data: str | bytes) -> Message:
    """The typed message a client sent (its bytes or text), every field checked against its
    bounds (``wire``); raises ``Refusal`` with a reason a person can read (and the message's
    ``id`` when known; code ``bad_message`` unless it says another).  Nothing of the network
    text is trusted: ``True`` is not a number here, sizes are bounded, names are checked for the
    allowed characters."""
    try:
        return _read_client(data)
    except Refusal as r:
        r.code = r.code or Code.BAD_MESSAGE
        raise


def _read_client(data: str | bytes) -> Message:
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise Refusal(f"Message too long: {size} bytes (at most {MAX_MESSAGE}).")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        raise Refusal("Not JSON: every message is one JSON object with a 'type'.") from None
    if not isinstance(obj, dict):
        raise Refusal("A message is a JSON object with a 'type'.")
    msg_id = obj.get("id")
    if msg_id is not None and (not isinstance(msg_id, int) or isinstance(msg_id, bool) or not -MAX_INT < msg_id < MAX_INT):
        raise Refusal("'id' must be a whole number.")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise Refusal("A message needs a 'type' (a string).", msg_id)
    cls = CLIENT_MESSAGES.get(kind)
    if cls is None:
        shown = kind[:20] if not has_control(kind) else "?"
        raise Refusal(f"Unknown message type {shown!r}.", msg_id)
    wire_fields, allowed = _wire(cls)
    if not allowed.issuperset(obj):
        extra = [k for k in obj if k not in allowed]
        shown = str(extra[0])[:20] if not has_control(str(extra[0])) else "?"
        raise Refusal(f"'{kind}' takes no field {shown!r}.", msg_id)
    cls.precheck(obj, msg_id)
    if cls.PRESENCE_FIRST:
        for f in wire_fields:
            if f.name not in obj and not _has_default(f):
                raise Refusal(f.metadata.get("missing") or f"'{kind}' needs '{f.name}'.", msg_id)
    values: dict[str, Any] = {}
    for f in wire_fields:
        if f.name in obj:
            values[f.name] = _check(f, obj[f.name], msg_id)
        elif not _has_default(f):
            raise Refusal(f.metadata.get("missing") or f"'{kind}' needs '{f.name}'.", msg_id)
    return cls(id=msg_id, **values).checked()


def _check(f: dataclasses.Field, value: Any, msg_id: int | None) -> Any:
    """One client field's value against its bounds (``wire``)."""
    meta, name = f.metadata, f.name
    if value is None and meta.get("nullable"):
        return None
    if meta.get("exact") is not None:
        if type(value) is not type(meta["exact"]) or value != meta["exact"]:  # not 1.0, not true
            raise Refusal(meta["bad"], msg_id)
        return value
    if meta.get("one_of") is not None:
        if not isinstance(value, int) or isinstance(value, bool) or value not in meta["one_of"]:
            raise Refusal(meta["bad"], msg_id)
        return value
    if meta.get("whole") is not None:
        lo, hi = meta["whole"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise Refusal(f"'{name}' must be a whole number.", msg_id)
        if not lo <= value <= hi:
            raise Refusal(f"'{name}' must be {lo} to {hi}.", msg_id)
        return value
    if meta.get("boolean"):
        if not isinstance(value, bool):
            raise Refusal(f"'{name}' must be true or false.", msg_id)
        return value
    max_len = meta["text"]
    if not isinstance(value, str):
        raise Refusal(f"'{name}' must be a string.", msg_id)
    if len(value) > max_len:
        raise Refusal(f"'{name}' is too long (at most {max_len} characters).", msg_id)
    if has_control(value):
        raise Refusal(f"'{name}' may not hold control characters.", msg_id)
    return value


def _is_day(text: str) -> bool:
    """Whether ``text`` is a date ``YYYY-MM-DD``."""
    import datetime

    try:
        return datetime.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control, format, surrogate or unassigned character."""
    if text.isprintable():  # none of those is printable (str.isprintable: no C or Z but the space)
        return False
    return any(unicodedata.category(ch)[0] == "C" for ch in text)


def table_rules(text: str) -> str:
    """The canonical rules name of a table opened with ``text``: any §10 rules name (``classic``,
    ``+``-joined options such as Joker, Undo off, Fast, Open, Relaxed, Scorpion, Training =
    ``practice``, and the one-deck games); ``scoring`` and ``timed`` may be named (every Palast
    round has both).  Raises ``ValueError`` with the reason."""
    try:
        rules = rules_named(text)
    except KeyError as e:
        raise ValueError(str(e.args[0])) from None
    if rules.timed:
        rules = rules.with_options(timed=False)  # every round has the clock
    return rules.with_options(scoring=False).name


#: ``check_move``'s answers to the move texts it took lately (a few hundred texts are common)
_MOVES: dict[str, str] = {}


def check_move(text: str, msg_id: int | None) -> str:
    """A ``play`` move, normalised: ``deal``, ``undo``, ``give up``, ``joker>N`` or ``S>T[:K]``."""
    known = _MOVES.get(text)
    if known is not None:
        return known
    move = _check_move(text, msg_id)
    if len(_MOVES) >= 4096:
        _MOVES.clear()
    _MOVES[text] = move
    return move


def _check_move(text: str, msg_id: int | None) -> str:
    t = " ".join(text.strip().lower().split())
    if not t.isascii():  # "３>７": fullwidth (or other) digits are not move numbers
        raise Refusal("Write moves with plain digits and letters, like 3>7 or deal.", msg_id)
    if t in PLAY_WORDS:
        return t
    try:
        return str(Move.parse(t))
    except ValueError as e:
        raise Refusal(getattr(e, "reason", str(e)), msg_id) from None


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
_FIELDS: dict[type, tuple[dataclasses.Field, ...]] = {}
_DUMPED: dict[type, tuple[tuple[str, bool, Any], ...]] = {}
_WIRE: dict[type, tuple[tuple[dataclasses.Field, ...], frozenset[str]]] = {}


def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    """``dataclasses.fields`` of a class, read once (it is asked at every message)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = dataclasses.fields(cls)
    return _FIELDS[cls]


def _dumped(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """(name, left out when default, default) of each field, in order, for ``to_json``."""
    if cls not in _DUMPED:
        _DUMPED[cls] = tuple((f.name, bool(f.metadata.get("omit")), f.default) for f in _fields(cls))
    return _DUMPED[cls]


def _wire(cls: type) -> tuple[tuple[dataclasses.Field, ...], frozenset[str]]:
    """A client message's fields but ``id``, and the keys it may hold."""
    if cls not in _WIRE:
        wire_fields = tuple(f for f in _fields(cls) if f.name != "id")
        _WIRE[cls] = (wire_fields, frozenset({f.name for f in wire_fields} | {"type", "id"}))
    return _WIRE[cls]


_READERS: dict[type, tuple[tuple[str, Callable[[Any, str], Any], bool], ...]] = {}


def _readers(cls: type) -> tuple[tuple[str, Callable[[Any, str], Any], bool], ...]:
    """(name, reader, has a default) of each field, for ``from_json``: each reader is ``_load``
    made for its type once (a message's every field asked ``typing`` again, issue 32)."""
    if cls not in _READERS:
        hints = _hints(cls)
        _READERS[cls] = tuple((f.name, _reader(hints[f.name]), _has_default(f)) for f in _fields(cls))
    return _READERS[cls]


def _reader(tp: Any) -> Callable[[Any, str], Any]:
    """``lambda value, where: _load(tp, value, where)``, the same answers and refusals, with the
    commonest types read without asking ``typing``: a whole number, a string, an optional one."""
    args = typing.get_args(tp)
    if tp is int:
        def whole(value: Any, where: str) -> Any:
            if value.__class__ is int and -MAX_INT < value < MAX_INT:
                return value
            return _load(int, value, where)
        return whole
    if tp is str:
        def string(value: Any, where: str) -> Any:
            return value if value.__class__ is str else _load(str, value, where)
        return string
    if typing.get_origin(tp) in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        some = _reader(args[0] if args[1] is type(None) else args[1])

        def optional(value: Any, where: str) -> Any:  # every other reader refuses None
            if value is None:
                return None
            try:
                return some(value, where)
            except BadMessage:
                raise BadMessage(f"'{where}' has the wrong type") from None
        return optional
    if typing.get_origin(tp) is list and args:
        (item_type,) = args
        item = _reader(item_type)

        def many_of(value: Any, where: str) -> Any:
            if not isinstance(value, list):
                raise BadMessage(f"'{where}' must be a list")
            out = []
            for v in value:  # one bad entry of a list is left out, not the whole message
                try:
                    out.append(item(v, where))
                except BadMessage:
                    pass
            return out
        return many_of
    if isinstance(tp, type) and issubclass(tp, Part):  # what ``_load`` does for a part, without asking ``typing``
        read_part = tp.from_json
        return lambda value, where: read_part(value)
    return lambda value, where: _load(tp, value, where)


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


def _part_json(value: Any) -> Any:
    if isinstance(value, Part):
        return value._shallow()
    raise TypeError(f"{type(value).__name__} is not JSON")


#: Compact JSON, parts written as their ``to_json`` would be (one encoder for every message:
#: ``json.dumps`` with options makes a new one at each call).
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=_part_json).encode


def _dump(value: Any) -> Any:
    if isinstance(value, Part):
        return value.to_json()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value
