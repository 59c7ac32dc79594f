"""The typed Palast messages (``spider_tui/palast/messages.py``) against docs/protocol.md, and
the client-side check of what a server sends (a bad value is refused or left at its default,
never a crash)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from spider_tui.palast import messages as m
from spider_tui.palast import protocol

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def glance() -> dict[str, dict[str, tuple[str, ...]]]:
    """The "Every message at a glance" block of docs/protocol.md, section by section."""
    block = DOC.split("## Every message at a glance", 1)[1].split("```", 2)[1]
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    section: dict[str, tuple[str, ...]] = {}
    for raw in block.strip().splitlines():
        if not raw.startswith(" "):
            section = out.setdefault(raw.strip(), {})
            continue
        found = re.fullmatch(r"\s+(\w+) \{([\w, ]*)\}", raw)
        assert found, raw
        name, fields = found.groups()
        assert name not in section, f"{name} listed twice"
        section[name] = tuple(f.strip() for f in fields.split(",") if f.strip())
    return out


def test_the_glance_lists_every_message_and_field_of_the_module_and_nothing_else():
    doc = glance()
    assert set(doc) == {"client → server", "server → client", "objects inside messages"}
    assert doc["client → server"] == {k: m.fields_of(c) for k, c in m.CLIENT_MESSAGES.items()}
    assert doc["server → client"] == {k: m.fields_of(c) for k, c in m.SERVER_MESSAGES.items()}
    assert doc["objects inside messages"] == {k: c.field_names() for k, c in m.PARTS.items()}


def test_the_refusal_codes_are_listed_in_the_document_as_the_module_has_them():
    """Issue 28 item 2: every ``Code`` is in docs/protocol.md's "Refusal codes" table and
    nothing else is; ``refused`` and ``error`` carry it as an optional field."""
    table = DOC.split("## Refusal codes", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^\| `(\w+)` \|", table, re.M) == [c.value for c in m.Code]
    for cls in (m.Refused, m.Error):
        assert cls.from_json({"type": cls.TYPE, "reason": "x"}).why is None  # an older server: no code
        assert cls.from_json({"type": cls.TYPE, "reason": "x", "code": "from_a_newer_server"}).why is None
        assert cls.from_json({"type": cls.TYPE, "code": "table_full"}).why is m.Code.TABLE_FULL
        assert "code" not in cls(reason="x").to_json()  # left out while there is none


def test_the_prose_tables_name_the_same_messages():
    """Every message in the tables of the prose exists in the module, and every message and
    field of the module is written (in backticks) in the prose above the glance."""
    prose = DOC.split("## Every message at a glance", 1)[0]
    client = re.search(r"## Client → server\n(.*?)\n## ", prose, re.S)
    events = re.search(r"## Events \(server → client, no `id`\)\n(.*?)\n\n", prose, re.S)
    assert client and events
    rows = lambda text: {r for r in re.findall(r"^\| `(\w+)`", text, re.M)}  # noqa: E731
    assert rows(client.group(1)) == set(m.CLIENT_MESSAGES)
    answers = set(re.findall(r"`(\w+) \{", client.group(1))) | set(re.findall(r"`(\w+) \{", prose))
    assert answers <= set(m.SERVER_MESSAGES), answers - set(m.SERVER_MESSAGES)
    assert rows(events.group(1)) <= set(m.SERVER_MESSAGES)
    words = {w for span in re.findall(r"`([^`]*)`", prose) for w in re.findall(r"[a-z_]+", span)}
    every = {*m.CLIENT_MESSAGES, *m.SERVER_MESSAGES}
    for cls in (*m.CLIENT_MESSAGES.values(), *m.SERVER_MESSAGES.values(), *m.PARTS.values()):
        every |= set(cls.field_names()) - {"id"}
    assert every <= words, sorted(every - words)


def test_the_server_refuses_exactly_the_fields_the_definitions_list():
    assert protocol.CLIENT_TYPES == {k: m.fields_of(c) for k, c in m.CLIENT_MESSAGES.items()}
    with pytest.raises(protocol.Refusal, match="takes no field 'seconds'"):
        m.read_client(json.dumps({"type": "play", "move": "deal", "seconds": 1}))


def test_a_message_goes_through_json_and_back_unchanged():
    t = m.TableInfo(id=3, host=None, suits=2, rules="joker", rounds=3, round=1, seats=4, players=["A", "B"],
                    state="playing", standard=True, round_seconds=1200, between_seconds=30, start_seconds=45,
                    seated=[m.Seated(player="A"), m.Seated(player="B", bot=True)])
    for msg in (m.Joined(table=t, code=None, id=4), m.Progress(table=3, player="B", score=5, runs=1, moves=9,
                                                               state="solved", seconds=61.5, bot=True),
                m.RoundOver(table=3, round=1, deal="p-abc", standings=[m.Standing(player="A", score=3, total=3,
                                                                                  moves=2, seconds=1.5)])):
        wire = json.loads(protocol.dumps(msg))
        assert m.read_server(wire) == msg
    assert m.Joined(table=t, code=None).to_json()["table"]["seated"] == [{"player": "A"}, {"player": "B", "bot": True}]
    assert "id" not in m.Left(table=3).to_json() and "seconds" not in m.Progress(player="A").to_json()
    assert m.League(players=[], me=None).to_json() == {"type": "league", "players": [], "total": 0, "me": None}


@pytest.mark.parametrize("bad", [
    {"type": "round", "table": 7, "round": "x", "position": "p", "ends_at": 1},
    {"type": "round", "table": 7, "round": True, "position": "p"},
    {"type": "joined", "table": {"id": "7"}, "code": None},
    {"type": "played", "move": "deal", "position": 5, "score": 1},
    {"type": "progress", "player": ["x"]},
    {"type": "closed", "reason": "no table"},
    {"type": "hello", "protocol": 1, "name": "A", "token": None},  # a client message, not the server's
    {"type": 5},
    [1, 2],
])
def test_a_required_field_of_the_wrong_type_refuses_the_message(bad):
    with pytest.raises(m.BadMessage):
        m.read_server(bad)


def test_an_optional_field_of_the_wrong_type_takes_its_default_and_bad_list_entries_go():
    got = m.read_server({"type": "tables", "tables": [{"id": 8, "suits": "many", "players": ["A", 1, None],
                                                       "between_seconds": float("nan")}, "junk", None],
                         "total": 10**30})
    assert isinstance(got, m.Tables)
    assert got.total == 0 and len(got.tables) == 1
    t = got.tables[0]
    assert (t.id, t.suits, t.players, t.between_seconds) == (8, 1, ["A"], None)


json_value = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=12)


@given(st.sampled_from(sorted(m.SERVER_MESSAGES)), st.dictionaries(
    st.sampled_from(sorted({f for c in (*m.SERVER_MESSAGES.values(), *m.PARTS.values()) for f in c.field_names()})),
    json_value, max_size=8))
def test_any_value_from_a_server_is_read_or_refused_never_a_crash(kind, fields):
    try:
        msg = m.read_server({"type": kind, **fields})
    except m.BadMessage:
        return
    again = m.read_server(json.loads(json.dumps(msg.to_json())))
    assert again == msg  # what was read has the types its definition says


def test_no_module_outside_the_table_calls_its_private_changed():
    """Issue 21: the Palast session called the private ``race._changed()``; a table is changed
    through its own methods (``say``, ``take_game``, ``RaceTable.tell_cards`` …)."""
    root = Path(__file__).resolve().parents[2] / "spider_tui"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if re.search(r"(?<!self)\.\s*_changed\(\)", p.read_text(encoding="utf-8"))]
    assert offenders == []


_ROW = st.builds(m.LeagueRow, name=st.text(min_size=1, max_size=12), rating=st.floats(-50, 80, allow_nan=False),
                 tables=st.integers(0, 10**6), wins=st.integers(0, 10**6), experience=st.integers(0, 10**9),
                 place=st.none() | st.integers(1, 10**6))


@given(rows=st.lists(_ROW, max_size=8), me=st.none() | _ROW, msg_id=st.none() | st.integers(-2**53, 2**53),
       total=st.integers(0, 10**6))
def test_a_league_of_shared_rows_is_the_same_text_as_one_made_whole(rows, me, msg_id, total):
    # The server encodes the league's top rows once (m.Rows) and splices them into every answer:
    # what goes on the wire must be exactly what encoding the whole message gives.
    whole = m.League(players=list(rows), total=total, me=me, id=msg_id)
    shared = m.League(players=m.Rows(rows), total=total, me=me, id=msg_id)
    assert shared.text() == whole.text() == protocol.dumps(whole)
    assert json.loads(shared.text()) == whole.to_json()


def test_text_is_the_json_of_to_json_byte_for_byte():
    """``Message.text`` writes parts through its encoder's hook (issue 32); the text is the one
    ``json.dumps(to_json())`` gives, nested parts, lists of parts, omitted flags and all."""
    import json

    from spider_tui.palast import messages as m

    def old(msg: m.Message) -> str:
        return json.dumps(msg.to_json(), separators=(",", ":"), ensure_ascii=False)

    table = m.TableInfo(id=7, host="Ännchen", players=["A", "Bé"], private=True)
    samples: list[m.Message] = [
        m.Played(move="3>7", position="suits: 2\nrules: classic\n1: ?? |\u00a0AS\n", score=512, id=9,
                 turned_up=[m.TurnedUp(column=3, card="KH"), m.TurnedUp(column=10, card="2S")], dealt=["AS"] * 10,
                 completed=[4]),
        m.Played(move="undo", position="", score=None),
        m.Joined(table=table, code="ABCD", id=2**52),
        m.League(players=[m.LeagueRow(name="x", rating=1.5, place=1), m.LeagueRow(name="y")],
                 me=m.LeagueRow(name="z", rating=-0.25), total=3),
        m.Refused(reason="Nope \"quoted\" \\ and \u2028", code=m.Code.TRY_AGAIN, id=-1),
    ]
    for msg in samples:
        assert msg.text() == old(msg)
