"""messages.read_client: whatever arrives, a checked message or a Refusal with a reason (never a crash)."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.palast.messages import Message, read_client as parse
from spider_tui.palast.protocol import CLIENT_TYPES, Refusal, has_control, name_problem, table_rules

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
fields = sorted({f for fs in CLIENT_TYPES.values() for f in fs} | {"id", "type"})
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(CLIENT_TYPES)) | st.text(max_size=10)},
    optional={f: values | st.sampled_from([1, 2, 4, "classic", "3>7", "deal", True, "Anna"]) for f in fields if f != "type"},
)


@settings(max_examples=80, deadline=None)
@given(msg=messages)
def test_parse_never_crashes_and_checks_types(msg):
    try:
        req = parse(json.dumps(msg))
    except Refusal as r:
        assert r.reason and not has_control(r.reason)
        return
    assert isinstance(req, Message) and req.TYPE in CLIENT_TYPES
    for key, value in req.to_json().items():
        if key in ("suits", "rounds", "seats", "table"):
            assert type(value) is int
        if key in ("name", "rules", "move", "code"):
            assert isinstance(value, str) and not has_control(value)
    if req.TYPE == "hello" and getattr(req, "token") is None:  # a registration: the name is NFKC and allowed
        name = getattr(req, "name")
        assert name_problem(name) is None and unicodedata.normalize("NFKC", name) == name


@settings(max_examples=300, deadline=None)
@given(raw=st.binary(max_size=200) | st.text(max_size=200))
def test_parse_refuses_garbage_with_a_reason(raw):
    try:
        parse(raw)
    except Refusal as r:
        assert r.reason


@given(name=st.text(max_size=20))
def test_accepted_names_follow_the_rules(name):
    if name_problem(name) is None:  # judged, and stored, in its NFKC form ('0\xa00' is '0 0')
        stored = unicodedata.normalize("NFKC", name)
        assert 1 <= len(stored) <= 16 and not has_control(stored)
        assert all(ch.isalnum() or ch in " -_." for ch in stored)


def test_table_rules_are_canonical_and_scoring_is_implicit():
    assert table_rules("Fast + Joker") == "joker+fast"
    assert table_rules("scoring") == "classic"
    assert table_rules("timed") == "classic"
    assert table_rules("practice") == "practice"
    assert table_rules("Spiderette + joker") == "spiderette+joker"


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=24))
def test_a_registered_name_is_nfkc_visible_and_at_most_16_columns(name):
    """Issue 20 item 10: whatever a client sends, a name the server registers is NFKC, has no
    default-ignorable or filler code point, and takes at most 16 terminal columns."""
    from spider_tui.palast import names

    try:
        req = parse(json.dumps({"type": "hello", "protocol": 1, "name": name, "token": None}))
    except Refusal:
        return
    stored = getattr(req, "name")
    assert unicodedata.normalize("NFKC", stored) == stored
    assert not any(names.ignorable(ch) for ch in stored) and not has_control(stored)
    assert 1 <= names.width(stored) <= 16
    assert names.key(stored) == names.key(name)  # the look-alike key doesn't depend on the form sent
