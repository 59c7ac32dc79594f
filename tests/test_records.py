"""Round records (SPEC §16): the text's writer and parser, replay on the engine, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_tui import records
from spider_tui.engine import Game
from spider_tui.records import Record, RecordError, check, read, write
from spider_tui.session import result_of, round_record
from spider_tui.table import Table


def played(number: int, suits: int, rules: str, steps: int, rng: random.Random,
           *, undo_rate: float = 0.1) -> tuple[Game, list[tuple[int, str]]]:
    """A round played by random legal choices (undo now and then), with rising times."""
    g = Game.new(number, suits=suits, rules=rules)
    actions: list[tuple[int, str]] = []
    ms = 0
    for _ in range(steps):
        ms += rng.randint(0, 5000)
        if g.rules.undo_allowed and actions and rng.random() < undo_rate and g.undo():
            actions.append((ms, "undo"))
            continue
        legal = g.legal_moves()
        if not legal or g.won:
            break
        move = rng.choice(legal)
        actions.append((ms, str(g.play(move))))
    return g, actions


def record_of(g: Game, actions, result: str, number: int, rules: str, seconds_extra: int = 0, **kw) -> Record:
    last = actions[-1][0] if actions else 0
    return Record(deal=number, suits=g.suits, rules=rules, date="2026-12-01T21:30:00Z", player="ann",
                  result=result, moves=g.moves, seconds=(last + seconds_extra) / 1000, actions=tuple(actions),
                  score=g.score, **kw)


deals = st.integers(1, 2_147_483_647)
suit_counts = st.sampled_from([1, 2, 4])
rule_names = st.sampled_from(["classic", "scoring", "relaxed+joker", "spiderette", "scoring+joker"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=deals, suits=suit_counts, rules=rule_names, steps=st.integers(0, 60), seed=st.integers(0, 2**32),
       extra=st.integers(0, 10_000))
def test_write_read_same_record_and_replay_reaches_its_result(number, suits, rules, steps, seed, extra):
    rng = random.Random(seed)
    g, actions = played(number, suits, rules, steps, rng)
    result = result_of(g, 0.0, g.won)
    if result == "left" and rng.random() < 0.5:
        g.give_up()
        result = "gave up"
    r = record_of(g, actions, result, number, g.rules.name, extra)
    text = write(r)
    assert read(text) == r
    assert write(read(text)) == text
    final = check(read(text), text)
    assert final.moves == r.moves and final.score == r.score and final.won == (result == "won")


@settings(max_examples=30, deadline=None)
@given(number=deals, suits=suit_counts, steps=st.integers(3, 40), seed=st.integers(0, 2**32), data=st.data())
def test_a_tampered_move_is_refused_with_its_line(number, suits, steps, seed, data):
    """Change one action to a move the position doesn't allow: the first line that fails is named."""
    g, actions = played(number, suits, "classic", steps, random.Random(seed), undo_rate=0.0)
    if len(actions) < 2:
        return
    r = record_of(g, actions, "left", number, "classic")
    text = write(r)
    lines = text.split("\n")
    first_action = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    k = data.draw(st.integers(0, len(actions) - 1))
    # a move the position before action k refuses
    before = Game.new(number, suits=suits)
    for _, m in actions[:k]:
        before.play(m)
    bad = next((f"{s}>{t}:1" for s in range(1, 11) for t in range(1, 11)
                if s != t and not before.is_legal(f"{s}>{t}:1")), None)
    assert bad is not None
    lines[first_action + k] = f"{actions[k][0]} {bad}"
    tampered = "\n".join(lines)
    with pytest.raises(RecordError) as e:
        records.read_checked(tampered)
    assert e.value.line == first_action + k + 1
    assert bad in e.value.reason


def test_result_must_match_the_replay():
    g, actions = played(1234, 1, "classic", 20, random.Random(5), undo_rate=0)
    r = record_of(g, actions, "won", 1234, "classic")
    with pytest.raises(RecordError, match="says won"):
        check(read(write(r)), write(r))
    r = record_of(g, actions, "left", 1234, "classic")
    text = write(r).replace(f"moves: {g.moves}", f"moves: {g.moves + 1}")
    with pytest.raises(RecordError, match="moves"):
        records.read_checked(text)


def test_a_won_round_replays_to_won():
    """A whole won round (the solver's line on an easy 1-suit deal) is a 'won' record."""
    from spider_tui.engine.solve import solve

    g = Game.new(1, suits=1)
    line = solve(g, max_nodes=200_000).moves
    if not line:
        pytest.skip("the solver gave no line for deal 1 within the budget")
    actions = [(i * 1000, str(m)) for i, m in enumerate(line)]
    for _, m in actions:
        g.play(m)
    assert g.won
    r = record_of(g, actions, "won", 1, "classic")
    assert check(read(write(r)), write(r)).won
    with pytest.raises(RecordError, match="win"):
        bad = record_of(g, actions, "gave up", 1, "classic")
        check(read(write(bad)))


@pytest.mark.parametrize("text, line, words", [
    ("hello\n", 1, "not a record"),
    ("", 0, "empty"),
    ("game: chess\ndeal: 1\n", 1, "only spider"),
    ("game: spider\ndeal: 0\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
     "moves: 0\nseconds: 1.000\n", 2, "deal"),
    ("game: spider\ndeal: 1\nsuits: 3\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
     "moves: 0\nseconds: 1.000\n", 3, "suits"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01\nplayer: a\nresult: left\n"
     "moves: 0\nseconds: 1.000\n", 5, "date"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: lost\n"
     "moves: 0\nseconds: 1.000\n", 7, "result"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
     "moves: 1\nseconds: 1.000\n5 deal\n3 undo\n", 11, "time goes back"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
     "moves: 1\nseconds: 1.000\n5 fly\n", 10, "Can't read"),
    ("game: spider\ngame: spider\n", 2, "second"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
     "moves: 1\nseconds: 1.000\n5 undo\n", 10, "nothing to undo"),
    ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\x1b]0;x\nresult: left\n", 6,
     "control"),
])
def test_bad_texts_name_their_first_failing_line(text, line, words):
    with pytest.raises(RecordError) as e:
        records.read_checked(text)
    assert e.value.line == line, str(e.value)
    assert words in str(e.value)


def test_crlf_and_a_missing_last_newline_are_read():
    g, actions = played(77, 2, "classic", 10, random.Random(1))
    r = record_of(g, actions, "left", 77, "classic")
    text = write(r)
    assert read(text.replace("\n", "\r\n")) == r
    assert read(text.rstrip("\n")) == r


def test_unknown_headers_are_kept():
    g, actions = played(77, 1, "classic", 3, random.Random(1))
    text = write(record_of(g, actions, "left", 77, "classic"))
    head, _, rest = text.partition("seconds:")
    text2 = head + "mood: calm\nseconds:" + rest
    r = read(text2)
    assert ("mood", "calm") in r.extra
    assert "mood: calm\n" in write(r)


# ---------------------------------------------------------------- the table's log and the session

def test_table_logs_every_action_with_its_play_time():
    now = [0.0]
    t = Table.new(5, suits=1, clock=lambda: now[0])
    t.resume()
    now[0] = 1.5
    assert t.play(t.game.hint())
    now[0] = 2.25
    assert t.undo()
    now[0] = 4.0
    assert t.deal()
    assert [ms for ms, _ in t.log] == [1500, 2250, 4000]
    assert [m for _, m in t.log][1:] == ["undo", "deal"]
    assert not t.play("1>1")  # refused: not logged
    assert len(t.log) == 3
    r = round_record(t, won=False)
    assert r is not None and r.result == "left" and r.moves == 1
    assert check(read(write(r))).moves == 1


def test_given_up_and_timed_out_results():
    now = [0.0]
    t = Table.new(9, suits=2, clock=lambda: now[0])
    t.resume()
    t.deal()
    t.give_up()
    assert round_record(t, False).result == "gave up"
    t = Table.new(9, suits=2, rules="timed", clock=lambda: now[0])
    t.resume()
    t.deal()
    now[0] += 10_000
    assert t.check_time()
    r = round_record(t, False)
    assert r.result == "time"
    check(read(write(r)))


def test_a_position_round_has_no_record():
    t = Table(Game.new(3).copy(), practice=True, start=Game.new(3).to_text())
    t.deal()
    assert round_record(t, False) is None


def test_share_line_is_spoiler_free():
    g, actions = played(1234, 2, "classic", 20, random.Random(3))
    line = records.share_line(record_of(g, actions, "left", 1234, "classic"))
    assert line.startswith("spider · deal 1234 · 2 suits · left after ")
    assert not any(m in line for _, m in actions if m not in ("deal", "undo"))


def test_a_refused_action_of_a_record_is_said_in_the_language_spoken():
    """The engine's refusal inside a record's fault reads in German when German is spoken."""
    from spider_tui.i18n import set_language

    text = ("game: spider\ndeal: 1\nsuits: 1\nrules: classic\ndate: 2026-12-01T21:30:00Z\nplayer: a\nresult: left\n"
            "moves: 1\nseconds: 1.000\n5 1>1:1\n")
    set_language("de")
    try:
        with pytest.raises(RecordError) as e:
            records.read_checked(text)
    finally:
        set_language("en")
    assert e.value.line == 10 and "Eine Folge kann nicht auf ihre eigene Spalte ziehen." in str(e.value), str(e.value)
