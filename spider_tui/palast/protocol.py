"""The Palast protocol, version 1 (SPEC §13; docs/protocol.md lists every message).

Every message is one JSON object with a ``type``; a client message may carry an integer ``id``
that its answer echoes.  Every message is defined once, in ``messages`` (with the bounds of each
client field); ``messages.read_client`` turns the bytes a client sent into a checked message or
raises ``Refusal``.  This module keeps the protocol's helpers: names, table rules, JSON text.
"""

from __future__ import annotations

import json

from spider_tui.engine import rules_named
from spider_tui.engine.rules import RULE_OPTIONS

from spider_tui.palast import messages, names

from spider_tui.palast.messages import (  # noqa: F401  (the protocol's words, defined once there)
    MAX_MESSAGE, PLAY_WORDS, PROTOCOL, ROUNDS, SEATS, SUITS, Refusal, check_move, has_control, table_rules,
)

NAME_MAX = names.NAME_MAX
#: The §10 options a table may be opened with (Scoring is always on; Training = practice): the
#: options of ``RULE_OPTIONS`` that have a line in the "Open a table" form.
TABLE_OPTIONS = tuple(o.word for o in RULE_OPTIONS if o.palast is not None)
#: Client message types and the fields each takes (``id`` is allowed on all), from ``messages``.
CLIENT_TYPES = {kind: messages.fields_of(cls) for kind, cls in messages.CLIENT_MESSAGES.items()}


def name_problem(name: str) -> str | None:
    """Why ``name`` can't be registered (SPEC §13: 1–16 letters, digits, space, ``-_.``, NFKC,
    no invisible or filler characters, at most 16 columns wide), or None.  The name is taken in
    its NFKC form (``names.normal``), as the server stores it."""
    return names.problem(names.normal(name))


def play_rules(table_rules_name: str) -> str:
    """The engine rules of a round at a table: the table's rules with Scoring (always on)."""
    return rules_named(table_rules_name).with_options(scoring=True).name


#: ``json.dumps(…, separators=(",", ":"), ensure_ascii=False)``, its encoder made once
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(message: dict | messages.Message) -> str:
    """One outgoing message as compact JSON."""
    if isinstance(message, messages.Message):
        return message.text()
    return _ENCODE(message)


__all__ = [
    "PROTOCOL", "MAX_MESSAGE", "Refusal", "dumps", "name_problem", "has_control", "table_rules", "play_rules",
    "check_move", "TABLE_OPTIONS", "CLIENT_TYPES",
]
