"""The Palast protocol, version 1 (SPEC §13; docs/protocol.md lists every message).

Every message is one JSON object with a ``type``; a client message may carry an integer ``id``
that its answer echoes.  ``parse`` turns the bytes a client sent into a checked ``Request`` or
raises ``Refusal`` with a reason a person can read; nothing of the network text is trusted:
every field is type-checked (``True`` is not an integer here), sizes are bounded, names are
checked for the allowed characters.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from spider_tui.engine import Move, rules_named
from spider_tui.engine.cards import SUIT_COUNTS

from spider_tui.palast import messages, names

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes per message, either way in (SPEC §13)
NAME_MAX = names.NAME_MAX
SUITS = SUIT_COUNTS
ROUNDS = (1, 10)
SEATS = (2, 6)
#: The §10 options a table may be opened with (Scoring is always on; Training = practice).
TABLE_OPTIONS = ("joker", "undo-off", "fast", "open", "relaxed", "scorpion", "practice")
#: Client message types and the fields each takes (``id`` is allowed on all), from ``messages``.
CLIENT_TYPES = {kind: messages.fields_of(cls) for kind, cls in messages.CLIENT_MESSAGES.items()}
#: ``play`` words besides §3 move text and ``joker>N``.
PLAY_WORDS = ("deal", "undo", "give up")


class Refusal(Exception):
    """A client message that can't be taken: ``reason`` goes back to the client."""

    def __init__(self, reason: str, msg_id: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.id = msg_id


@dataclass
class Request:
    type: str
    id: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.fields.get(key)


def _int(value: Any, name: str, lo: int, hi: int, msg_id: int | None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refusal(f"'{name}' must be a whole number.", msg_id)
    if not lo <= value <= hi:
        raise Refusal(f"'{name}' must be {lo} to {hi}.", msg_id)
    return value


def _str(value: Any, name: str, max_len: int, msg_id: int | None) -> str:
    if not isinstance(value, str):
        raise Refusal(f"'{name}' must be a string.", msg_id)
    if len(value) > max_len:
        raise Refusal(f"'{name}' is too long (at most {max_len} characters).", msg_id)
    if has_control(value):
        raise Refusal(f"'{name}' may not hold control characters.", msg_id)
    return value


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control, format, surrogate or unassigned character."""
    return any(unicodedata.category(ch)[0] == "C" for ch in text)


def name_problem(name: str) -> str | None:
    """Why ``name`` can't be registered (SPEC §13: 1–16 letters, digits, space, ``-_.``, NFKC,
    no invisible or filler characters, at most 16 columns wide), or None.  The name is taken in
    its NFKC form (``names.normal``), as the server stores it."""
    return names.problem(names.normal(name))


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


def play_rules(table_rules_name: str) -> str:
    """The engine rules of a round at a table: the table's rules with Scoring (always on)."""
    return rules_named(table_rules_name).with_options(scoring=True).name


def check_move(text: str, msg_id: int | None) -> str:
    """A ``play`` move, normalised: ``deal``, ``undo``, ``give up``, ``joker>N`` or ``S>T[:K]``."""
    t = " ".join(text.strip().lower().split())
    if not t.isascii():  # "３>７": fullwidth (or other) digits are not move numbers
        raise Refusal("Write moves with plain digits and letters, like 3>7 or deal.", msg_id)
    if t in PLAY_WORDS:
        return t
    try:
        return str(Move.parse(t))
    except ValueError as e:
        raise Refusal(getattr(e, "reason", str(e)), msg_id) from None


def parse(data: str | bytes) -> Request:
    """Read one client message; raises ``Refusal`` (with the message's ``id`` when known)."""
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
    if msg_id is not None and (not isinstance(msg_id, int) or isinstance(msg_id, bool) or not -(2**53) < msg_id < 2**53):
        raise Refusal("'id' must be a whole number.")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise Refusal("A message needs a 'type' (a string).", msg_id)
    if kind not in CLIENT_TYPES:
        shown = kind[:20] if not has_control(kind) else "?"
        raise Refusal(f"Unknown message type {shown!r}.", msg_id)
    allowed = set(CLIENT_TYPES[kind]) | {"type", "id"}
    extra = [k for k in obj if k not in allowed]
    if extra:
        shown = str(extra[0])[:20] if not has_control(str(extra[0])) else "?"
        raise Refusal(f"'{kind}' takes no field {shown!r}.", msg_id)
    req = Request(kind, msg_id)
    f = req.fields
    if kind == "hello":
        if "protocol" not in obj:
            raise Refusal("'hello' needs 'protocol' (1).", msg_id)
        if type(obj["protocol"]) is not int or obj["protocol"] != PROTOCOL:  # not 1.0, not true
            raise Refusal(f"This server speaks protocol {PROTOCOL} (the whole number {PROTOCOL}).", msg_id)
        if "name" not in obj:
            raise Refusal("'hello' needs a 'name'.", msg_id)
        name = _str(obj["name"], "name", 64, msg_id)
        token = obj.get("token")
        if token is not None:
            token = _str(token, "token", 128, msg_id)
            if not name:
                raise Refusal("'hello' needs a 'name'.", msg_id)
            # Signing in: the name as registered (names from before NFKC still sign in).
        else:
            name = names.normal(name)  # registering: the name as stored
            problem = names.problem(name)
            if problem:
                raise Refusal(problem, msg_id)
        f.update(protocol=PROTOCOL, name=name, token=token)
    elif kind == "open":
        for need in ("suits", "rules", "rounds", "seats", "private"):
            if need not in obj:
                raise Refusal(f"'open' needs '{need}'.", msg_id)
        suits = obj["suits"]
        if not isinstance(suits, int) or isinstance(suits, bool) or suits not in SUITS:
            raise Refusal("'suits' must be 1, 2 or 4.", msg_id)
        rules_text = _str(obj["rules"], "rules", 120, msg_id)
        try:
            rules = table_rules(rules_text)
        except ValueError as e:
            raise Refusal(str(e), msg_id) from None
        rounds = _int(obj["rounds"], "rounds", *ROUNDS, msg_id)
        seats = _int(obj["seats"], "seats", *SEATS, msg_id)
        if not isinstance(obj["private"], bool):
            raise Refusal("'private' must be true or false.", msg_id)
        f.update(suits=suits, rules=rules, rounds=rounds, seats=seats, private=obj["private"])
    elif kind == "join":
        if ("table" in obj) == ("code" in obj):
            raise Refusal("'join' needs 'table' (a table id) or 'code' (an invite code).", msg_id)
        if "table" in obj:
            f["table"] = _int(obj["table"], "table", 1, 2**53, msg_id)
        else:
            f["code"] = _str(obj["code"], "code", 16, msg_id).strip().upper()
    elif kind == "tables":
        f["page"] = _int(obj["page"], "page", 0, 10**6, msg_id) if "page" in obj else 0
    elif kind == "play":
        if "move" not in obj:
            raise Refusal("'play' needs a 'move'.", msg_id)
        f["move"] = check_move(_str(obj["move"], "move", 32, msg_id), msg_id)
    return req


def dumps(message: dict | messages.Message) -> str:
    """One outgoing message as compact JSON."""
    if isinstance(message, messages.Message):
        message = message.to_json()
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def refused(reason: str, msg_id: int | None = None) -> dict:
    return messages.Refused(reason=reason, id=msg_id).to_json()


__all__ = [
    "PROTOCOL", "MAX_MESSAGE", "Refusal", "Request", "parse", "dumps", "refused", "name_problem",
    "has_control", "table_rules", "play_rules", "TABLE_OPTIONS",
]
