"""The Palast's reasons in the client's language (SPEC §17: ``lang`` in ``hello``).

The server writes every refusal, error and closing reason in English, as the protocol shows
them; just before a ``refused``, ``error`` or ``closed`` goes out, :func:`in_language` says its
``reason`` in the language the client asked for in its ``hello`` (English when it asked for none,
or for a language the server doesn't speak).  A fixed reason goes through the catalog; a reason
with a number or a name in it is matched against its template here; an engine refusal (a move
the rules don't allow: an ``engine.Refusal``, which the server keeps as it is until here) is said
by its code through :mod:`spider_tui.engine_words`, not by its words.  A reason none of these knows
stays English.  The server speaks to each client in its own language at once, so nothing here
touches the app's one current language (:func:`spider_tui.i18n.set_language`).

>>> in_language("Nothing to undo.", "en")
'Nothing to undo.'
"""

from __future__ import annotations

import dataclasses
import gettext
import json
import re
from functools import lru_cache
from typing import Any

from spider_tui import engine_words
from spider_tui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, N_

#: Every reason the server writes, as a template (``{name}``: a part that changes).
TEMPLATES = (
    N_("Your address has {count} tables waiting to start; join one of them or wait until they start or close."),
    N_("Your network has {count} tables waiting to start; join one of them or wait until they start or close."),
    N_("Binary frames are not read: send each message as JSON text."),
    N_('Say hello first: {"type": "hello", "protocol": 1, "name": …, "token": …}.'),
    N_("Too many new names from your address; sign in with your token or try again later."),
    N_("That name is taken (or looks like one that is); pick another or give your token."),
    N_("Name and token don't match."),
    N_("Too many connections from your address; close some and try again."),
    N_("Too many connections from your network; close some and try again."),
    N_("The server is full; try again later."),
    N_("Too many messages: the connection is closed."),
    N_("The server could not answer that; try again."),
    N_("Say hello first (within 10 seconds)."),
    N_("Unknown message type {kind}."),
    N_("You said hello already."),
    N_("You already sit at table {table}; leave it or finish it first."),
    N_("There is no such table."),
    N_("You don't sit at a table."),
    N_("The table is finished."),
    N_("The table has started."),
    N_("A standard table starts by itself (when full, or {wait} after its second player)."),
    N_("Only the host starts the table."),
    N_("A table starts with at least two players (a Training table may start alone)."),
    N_("'ready' is for the pause between rounds."),
    N_("No table has that invite code."),
    N_("That table is finished."),
    N_("That table is full."),
    N_("That table has started."),
    N_("You have left that table."),
    N_("The table waited {wait} without starting and closed."),
    N_("No round is in play at your table."),
    N_("The round is over."),
    N_("Time is up for this round."),
    N_("You solved this round; wait for the others."),
    N_("You gave up this round; wait for the others."),
    N_("The server could not record that move; nothing changed. Try again."),
    N_("That table is private: join it with its invite code."),
    N_("Another account from your address already sits at this table, and it is rated: "
       "play together at a Training table (open one with Training on)."),
    N_("Undo is off at this table."),
    N_("A joker is final in the Palast: undo stops before it."),
    N_("Nothing to undo."),
    N_("The server can't reach its database just now; nothing changed. Try again."),
    N_("'{field}' must be a whole number."),
    N_("'{field}' must be {low} to {high}."),
    N_("'{field}' must be a string."),
    N_("'{field}' is too long (at most {most} characters)."),
    N_("'{field}' may not hold control characters."),
    N_("Write moves with plain digits and letters, like 3>7 or deal."),
    N_("Message too long: {size} bytes (at most {most})."),
    N_("A message is a JSON object with a 'type'."),
    N_("'id' must be a whole number."),
    N_("A message needs a 'type' (a string)."),
    N_("'{kind}' takes no field {field}."),
    N_("Not JSON: every message is one JSON object with a 'type'."),
    N_("'hello' needs 'protocol' (1)."),
    N_("This server speaks protocol {version} (the whole number {version})."),
    N_("'hello' needs a 'name'."),
    N_("'suits' must be 1, 2 or 4."),
    N_("'private' must be true or false."),
    N_("'{field}' must be true or false."),
    N_("'hello' needs 'protocol' ({version})."),
    N_("'open' needs '{field}'."),
    N_("'join' needs 'table' (a table id) or 'code' (an invite code)."),
    N_("'play' needs a 'move'."),
    N_("A name has 1 to {most} characters."),
    N_("A name may not hold invisible or filler characters."),
    N_("A name can't start or end with a space or hold two in a row."),
    N_("A name is at most {most} columns wide (a wide letter such as 王 takes two)."),
    N_("A name may hold only letters, digits, space and - _ ."),
    N_("A round's records are handed out after its round_over, not while it is played."),
    N_("That table has not played that round."),
    N_("A daily table's records are handed out when its day is over."),
    N_("That table has {count} watchers already; try again later."),
    N_("You are watching no table."),
    N_("That day has not begun."),
    N_("You had today's try at that daily table; come back tomorrow."),
    N_("'records' needs 'table' and 'round'."),
    N_("'watch' needs 'table'."),
    N_("'daily_play' needs 'suits' (1, 2 or 4)."),
    N_("'day' is a UTC date like 2026-12-01."),
)
#: Words inside a reason that are said in the client's language too (the waits: ``30 s``, ``2 min``).
SPANS = (N_("{n} s"), N_("{n} min"))

#: The messages whose ``reason`` a person reads.
WITH_REASON = ("refused", "error", "closed")


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[a-z]+\})", template)
    seen: set[str] = set()
    out = []
    for part in parts:
        if re.fullmatch(r"\{[a-z]+\}", part):
            name = part[1:-1]
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
        else:
            out.append(re.escape(part))
    return re.compile("".join(out), re.S)


_MATCHERS = [(t, _pattern(t)) for t in TEMPLATES if "{" in t]
_FIXED = frozenset(t for t in TEMPLATES if "{" not in t)


@lru_cache(maxsize=len(LANGUAGES))
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: none), loaded once."""
    if lang == "en" or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def _span(text: str, t: gettext.NullTranslations) -> str:
    m = re.fullmatch(r"(\d+(?:\.\d+)?) (s|min)", text)
    if m is None:
        return text
    return t.gettext("{n} s" if m[2] == "s" else "{n} min").format(n=m[1])


def in_language(reason: str, lang: str | None) -> str:
    """``reason`` (English, as the server wrote it) in ``lang``; unchanged for English, for a
    language the server doesn't speak, or for a reason it doesn't know."""
    if not lang or lang == "en" or lang not in LANGUAGES or not isinstance(reason, str):
        return reason
    t = translation(lang)
    if engine_words.known(reason):  # the engine's own: by its code, before any words are read
        return engine_words.said(reason, t)
    if reason in _FIXED:
        return t.gettext(reason)
    for template, pattern in _MATCHERS:
        m = pattern.fullmatch(reason)
        if m:
            return t.gettext(template).format(**{k: _span(v, t) for k, v in m.groupdict().items()})
    return reason


NAME_TAKEN = "That name is taken (or looks like one that is); pick another or give your token."
TOKEN_WRONG = "Name and token don't match."


def is_reason(reason: str, english: str) -> bool:
    """Is ``reason`` (as a client got it, in the language it asked for) the server's ``english``
    reason?  (The client's checks of a reason work in any language.)"""
    from spider_tui.i18n import language

    return reason == english or reason == in_language(english, language())


def known(reason: str) -> bool:
    """Does :func:`in_language` know ``reason`` (a template, or an engine refusal)?"""
    return reason in _FIXED or any(p.fullmatch(reason) for _t, p in _MATCHERS) or engine_words.known(reason)


def message_in_language(message: Any, lang: str | None) -> Any:
    """A message about to go out, its ``reason`` in ``lang`` (a JSON text is read and written
    again only when it has a reason to say)."""
    if not lang or lang == "en":
        return message
    if not isinstance(message, (dict, str)):  # a typed message (palast.messages)
        reason = getattr(message, "reason", None)
        if getattr(message, "TYPE", None) in WITH_REASON and isinstance(reason, str):
            said = in_language(reason, lang)
            if said != reason:
                return dataclasses.replace(message, reason=said)
        return message
    if isinstance(message, str):
        if '"reason"' not in message:
            return message
        try:
            parsed = json.loads(message)
        except ValueError:
            return message
        said = message_in_language(parsed, lang)
        return message if said == parsed else json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    if message.get("type") in WITH_REASON and isinstance(message.get("reason"), str):
        reason = in_language(message["reason"], lang)
        if reason != message["reason"]:
            return {**message, "reason": reason}
    return message
