"""The one door network text takes on the client (SPEC §13 Fair play, issue 28 item 4): the session
keeps the server's typed messages, and ``seen`` makes every string in one visible, the strings of
the parts and lists inside it too, so no control character reaches a terminal wherever a screen
shows them; numbers and flags pass as they were read."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Union

from spider_tui.palast import messages as m
from spider_tui.palast.client.session import PalastSession, _read, seen

TITLE = "\x1b]0;PWNED\x07"


def strings(value: object) -> list[str]:
    """Every string in a message, however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, m.Part):
        return [s for f in dataclasses.fields(value) for s in strings(getattr(value, f.name))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def no_controls(text: str) -> bool:
    return not any(ord(ch) < 0x20 and ch != "\n" or 0x7F <= ord(ch) < 0xA0 for ch in text)


def test_every_string_of_a_message_and_its_parts_and_lists_is_made_visible():
    joined = m.Joined(id=3, code=f"AB{TITLE}", table=m.TableInfo(
        id=7, host=f"Host{TITLE}", rules=f"classic\x9b31m", rounds=3, seats=4, players=[f"Eve{TITLE}", "Victim"],
        state=f"waiting\x1b[2J", seated=[m.Seated(player=f"Eve{TITLE}", bot=True)], between_seconds=5.0))
    shown = seen(joined)
    assert all(no_controls(s) for s in strings(shown)), strings(shown)
    assert shown.table.players == ["Eve\\x1b]0;PWNED\\x07", "Victim"]  # written out, not dropped
    assert shown.table.seated[0].player == "Eve\\x1b]0;PWNED\\x07" and shown.table.seated[0].bot is True
    assert shown.table.rules == "classic\\x9b31m" and shown.code == "AB\\x1b]0;PWNED\\x07"
    # numbers and flags as they were read; the message read stays as it was (a copy is shown)
    assert (shown.id, shown.table.id, shown.table.rounds, shown.table.between_seconds) == (3, 7, 3, 5.0)
    assert joined.table.host == f"Host{TITLE}"
    over = seen(m.RoundOver(round=2, deal=f"p-{TITLE}", standings=[m.Standing(player=TITLE, total=40)]))
    assert over.standings[0].player == "\\x1b]0;PWNED\\x07" and over.standings[0].total == 40
    assert over.deal == "p-\\x1b]0;PWNED\\x07" and seen(m.RoundOver(round=1, deal=17)).deal == 17


def test_a_newline_stays_for_the_places_that_span_lines():
    assert seen(m.Closed(table=1, reason="one\ntwo\x07")).reason == "one\ntwo\\x07"


def test_what_the_session_reads_from_the_client_is_typed_and_seen():
    raw = {"type": "progress", "table": 7, "player": f"Eve{TITLE}", "score": 5, "runs": 1, "moves": 9}
    read = _read(raw)
    assert isinstance(read, m.Progress) and read.player == "Eve\\x1b]0;PWNED\\x07" and read.score == 5
    assert _read({"type": "progress", "player": 5}) is None  # fits no definition: left out
    s = PalastSession("ws://127.0.0.1:1", "Victim")
    s._event(_read({"type": "joined", "table": {"id": 7, "host": TITLE, "players": [TITLE, "Victim"]}}))
    s._event(read)
    assert s.table is not None and s.table.host == "\\x1b]0;PWNED\\x07"
    assert list(s.opponents) == ["Eve\\x1b]0;PWNED\\x07"] and s.opponents["Eve\\x1b]0;PWNED\\x07"].moves == 9


def _walked(tp: object) -> bool:
    """Whether ``seen`` reaches every string a field of type ``tp`` can hold: a string, a number,
    a flag, None, a part, or a list (or union) of those; a dict or tuple would hide strings."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType, list):
        return all(_walked(a) for a in typing.get_args(tp))
    return tp in (str, int, float, bool, type(None)) or (isinstance(tp, type) and issubclass(tp, m.Part))


def test_seen_walks_every_field_of_every_server_message_and_part():
    classes = list(m.SERVER_MESSAGES.values()) + list(m.PARTS.values())
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            assert _walked(hints[f.name]), f"{cls.__name__}.{f.name}: {hints[f.name]}"
