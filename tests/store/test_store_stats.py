"""Stats arithmetic and the played/won rules (SPEC §7), summary() shape (SPEC §9), settings, round."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.store import (
    RoundResult,
    RoundState,
    Settings,
    add_play_time,
    default_data,
    get_settings,
    load_round,
    record_result,
    save_round,
    set_setting,
    stats_rules,
    summary,
)
from spider_tui.store.savefile import dump_text, parse_bytes

D = date(2026, 11, 29)
FIVE = {"played", "won", "win_rate", "fewest_moves", "fastest_seconds"}


def result(**kw) -> RoundResult:
    base = {"suits": 1, "won": False, "moves": 10, "seconds": 60.0}
    return RoundResult(**{**base, **kw})


def assert_spec_shape(s: dict) -> None:
    """Exactly the keys of SPEC §9, and the right value types."""
    assert set(s) == {"suits", "total_play_seconds", "daily_rounds_won"}
    assert list(s["suits"]) == ["1", "2", "4"]
    for per in s["suits"].values():
        assert set(per) == FIVE | {"daily"}
        assert set(per["daily"]) == FIVE
        for five in (per, per["daily"]):
            assert type(five["played"]) is int and type(five["won"]) is int
            assert five["win_rate"] is None or isinstance(five["win_rate"], float)
            assert five["fewest_moves"] is None or type(five["fewest_moves"]) is int
            assert five["fastest_seconds"] is None or isinstance(five["fastest_seconds"], float)
    assert isinstance(s["total_play_seconds"], float)
    assert type(s["daily_rounds_won"]) is int


# -- played / won rules --------------------------------------------------------------------------


def test_empty_summary_shape_and_values():
    for data in ({}, default_data()):
        s = summary(data)
        assert_spec_shape(s)
        empty = {"played": 0, "won": 0, "win_rate": None, "fewest_moves": None, "fastest_seconds": None}
        assert s["suits"]["2"] == {**empty, "daily": empty}
        assert s["total_play_seconds"] == 0.0 and s["daily_rounds_won"] == 0


def test_spec_example():
    data: dict = {}
    record_result(data, result(won=True, moves=151, seconds=812.4, daily=D))
    record_result(data, result(moves=40, seconds=900.0))
    record_result(data, result(moves=12, seconds=998.6))
    s = summary(data)
    assert_spec_shape(s)
    assert s["suits"]["1"] == {"played": 3, "won": 1, "win_rate": 0.333, "fewest_moves": 151,
                               "fastest_seconds": 812.4,
                               "daily": {"played": 1, "won": 1, "win_rate": 1.0, "fewest_moves": 151,
                                         "fastest_seconds": 812.4}}
    assert s["total_play_seconds"] == 2711.0
    assert s["daily_rounds_won"] == 1


def test_fewest_and_fastest_only_from_wins():
    data: dict = {}
    record_result(data, result(won=False, moves=5, seconds=3.0))
    s = summary(data)["suits"]["1"]
    assert (s["played"], s["won"], s["fewest_moves"], s["fastest_seconds"]) == (1, 0, None, None)
    record_result(data, result(won=True, moves=200, seconds=500.0))
    record_result(data, result(won=True, moves=150, seconds=700.0))  # fewer moves, slower
    record_result(data, result(won=False, moves=1, seconds=1.0))
    s = summary(data)["suits"]["1"]
    assert (s["played"], s["won"], s["fewest_moves"], s["fastest_seconds"]) == (4, 2, 150, 500.0)


def test_split_by_suit_count_and_rules():
    data: dict = {}
    record_result(data, result(suits=2, won=True, moves=300, seconds=10))
    record_result(data, result(suits=4, moves=30, seconds=10))
    record_result(data, result(suits=4, rules="relaxed", won=True, moves=99, seconds=10))
    s = summary(data)
    assert [s["suits"][k]["played"] for k in "124"] == [0, 1, 1]
    assert s["suits"]["2"]["fewest_moves"] == 300
    assert s["suits"]["4"]["won"] == 0
    r = summary(data, "relaxed")
    assert [r["suits"][k]["played"] for k in "124"] == [0, 0, 1]
    assert r["suits"]["4"]["fewest_moves"] == 99
    assert s["total_play_seconds"] == r["total_play_seconds"] == 30.0  # across presets
    assert stats_rules(data) == ["classic", "relaxed"]
    assert stats_rules({}) == ["classic"]


def test_daily_split_by_suit_count_and_distinct_dates():
    data: dict = {}
    record_result(data, result(suits=1, won=True, moves=120, seconds=100, daily=D))
    record_result(data, result(suits=2, won=True, moves=220, seconds=200, daily=D))       # same date
    record_result(data, result(suits=2, won=False, moves=50, seconds=50, daily=D - timedelta(3)))
    record_result(data, result(suits=4, won=True, moves=400, seconds=300, daily=D - timedelta(1)))
    record_result(data, result(suits=4, won=True, moves=10, seconds=5))                  # not daily
    s = summary(data)
    d1, d2, d4 = (s["suits"][k]["daily"] for k in "124")
    assert (d1["played"], d1["won"], d1["fewest_moves"]) == (1, 1, 120)
    assert (d2["played"], d2["won"], d2["win_rate"], d2["fewest_moves"]) == (2, 1, 0.5, 220)
    assert (d4["played"], d4["won"], d4["fewest_moves"], d4["fastest_seconds"]) == (1, 1, 400, 300.0)
    assert s["suits"]["4"]["fewest_moves"] == 10  # the daily round counts in the normal five too
    assert s["suits"]["4"]["played"] == 2
    assert s["daily_rounds_won"] == 2  # D (twice, at 1 and 2 suits) and D-1


def test_daily_under_other_rules_marks_no_date():
    data: dict = {}
    record_result(data, result(rules="relaxed", won=True, moves=50, daily=D))
    assert summary(data, "relaxed")["suits"]["1"]["daily"]["won"] == 1
    assert summary(data)["daily_rounds_won"] == 0


def test_practice_records_nothing():
    data: dict = {}
    record_result(data, result(won=True, moves=80, seconds=99.0, practice=True, daily=D))
    assert data == {}
    assert summary(data) == summary({})


def test_round_without_a_move_records_nothing():
    data: dict = {}
    record_result(data, result(moves=0, seconds=30.0))
    assert data == {}


@pytest.mark.parametrize("won, played, rate", [(1, 3, 0.333), (2, 3, 0.667), (1, 8, 0.125), (0, 7, 0.0),
                                               (7, 7, 1.0), (1, 6, 0.167)])
def test_win_rate_rounding(won, played, rate):
    data: dict = {}
    for i in range(played):
        record_result(data, result(won=i < won))
    assert summary(data)["suits"]["1"]["win_rate"] == rate


def test_times_rounded_in_summary():
    data: dict = {}
    record_result(data, result(won=True, seconds=812.4367))
    add_play_time(data, 0.3)
    s = summary(data)
    assert s["suits"]["1"]["fastest_seconds"] == 812.4
    assert s["total_play_seconds"] == 812.7


def test_add_play_time_rejects_bad_values():
    with pytest.raises(ValueError):
        add_play_time({}, -1)
    with pytest.raises(ValueError):
        add_play_time({}, math.nan)


@pytest.mark.parametrize("kw", [{"suits": 3}, {"suits": True}, {"moves": -1}, {"moves": 1.5},
                                {"seconds": -0.1}, {"seconds": math.inf}, {"rules": ""},
                                {"won": 1}, {"daily": "2026-11-29"}, {"daily": datetime(2026, 11, 29)}])
def test_round_result_validation(kw):
    with pytest.raises(ValueError):
        result(**kw)


def test_summary_tolerates_bad_values():
    data = {"total_play_seconds": 5, "stats": {"classic": {"1": {"played": 2, "won": 1, "fewest_moves": 1.5,
                                                              "fastest_seconds": True}}}}
    s = summary(data)
    assert_spec_shape(s)
    assert s["suits"]["1"]["fewest_moves"] is None and s["suits"]["1"]["fastest_seconds"] is None
    assert s["total_play_seconds"] == 5.0


# -- property ------------------------------------------------------------------------------------

results = st.builds(
    RoundResult,
    suits=st.sampled_from([1, 2, 4]),
    won=st.booleans(),
    moves=st.integers(min_value=0, max_value=2000),
    seconds=st.floats(min_value=0, max_value=100_000, allow_nan=False, allow_infinity=False),
    rules=st.sampled_from(["classic", "relaxed"]),
    daily=st.none() | st.dates(min_value=date(2026, 11, 1), max_value=date(2026, 11, 29)),
    practice=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(results, max_size=40))
def test_property_counts(rs):
    data: dict = {}
    for r in rs:
        record_result(data, r)
    counted = [r for r in rs if not r.practice and r.moves >= 1]
    for rules in ("classic", "relaxed"):
        s = summary(data, rules)
        assert_spec_shape(s)
        for suits in (1, 2, 4):
            mine = [r for r in counted if r.rules == rules and r.suits == suits]
            for per, pool in ((s["suits"][str(suits)], mine),
                              (s["suits"][str(suits)]["daily"], [r for r in mine if r.daily])):
                wins = [r for r in pool if r.won]
                assert per["played"] == len(pool)
                assert per["won"] == len(wins) <= per["played"]
                assert per["fewest_moves"] == (min(r.moves for r in wins) if wins else None)
                if wins:
                    assert per["fastest_seconds"] == pytest.approx(min(r.seconds for r in wins), abs=0.051)
                else:
                    assert per["fastest_seconds"] is None
                assert per["win_rate"] == (round(len(wins) / len(pool), 3) if pool else None)
    total_played = sum(summary(data, rules)["suits"][k]["played"] for rules in ("classic", "relaxed") for k in "124")
    assert total_played == len(counted)
    assert summary(data)["daily_rounds_won"] == len(
        {r.daily for r in counted if r.won and r.daily and r.rules == "classic"})
    assert summary(data)["total_play_seconds"] == pytest.approx(sum(r.seconds for r in counted), abs=0.06 + 0.001 * len(rs))
    # And the data survives the trip through the file format unchanged.
    data["version"] = 1
    assert parse_bytes(dump_text(data).encode()) == data


# -- settings ------------------------------------------------------------------------------------


def test_settings_defaults():
    assert get_settings({}) == Settings(suits=1, rules="classic", four_color=True, ascii=False, winnable_only=False)
    assert get_settings(default_data()) == Settings()


def test_bad_setting_values_fall_back():
    data = {"settings": {"suits": 3, "rules": "", "four_color": "yes", "ascii": True}}
    assert get_settings(data) == Settings(ascii=True)
    assert get_settings({"settings": "nope"}) == Settings()
    assert get_settings({"settings": {"suits": True}}).suits == 1


def test_set_setting():
    data = default_data()
    set_setting(data, "suits", 4)
    set_setting(data, "rules", "relaxed")
    set_setting(data, "four_color", True)
    assert get_settings(data) == Settings(suits=4, rules="relaxed", four_color=True)
    with pytest.raises(ValueError, match="unknown setting"):
        set_setting(data, "volume", 3)
    for name, value in (("suits", 3), ("suits", "4"), ("ascii", 1), ("rules", "")):
        with pytest.raises(ValueError, match="bad value"):
            set_setting(data, name, value)
    assert get_settings(data).suits == 4


# -- the unfinished round ------------------------------------------------------------------------

POSITION = "suits: 2\nrules: classic\ndeal: 1234\nmoves: 17\n1: Qh 3s 7h | 9s 8s\n2: | Kh\n"


def test_round_round_trip():
    data: dict = {}
    state = RoundState(position=POSITION, suits=2, moves=17, seconds=95.25, hints=2, deal=1234, daily=D)
    save_round(data, state)
    assert data["round"]["daily"] == "2026-11-29"
    assert load_round(data) == state
    text = dump_text({**data, "version": 1})
    assert '"""' in text  # the position is a readable multi-line string
    assert load_round(parse_bytes(text.encode())) == state


def test_round_none_values_are_left_out():
    data: dict = {}
    save_round(data, RoundState(position=POSITION, suits=1, practice=True))
    assert "deal" not in data["round"] and "daily" not in data["round"]
    assert load_round(data) == RoundState(position=POSITION, suits=1, practice=True)


def test_save_round_replaces_whole():
    data = {"round": {"position": "x", "suits": 1, "old_key": 1}}
    save_round(data, RoundState(position=POSITION, suits=4))
    assert "old_key" not in data["round"]


@pytest.mark.parametrize("change", [
    {"position": 5}, {"position": "  "}, {"suits": 3}, {"suits": "2"}, {"moves": -1}, {"moves": 1.0},
    {"hints": "2"}, {"seconds": "10"}, {"seconds": -1.0}, {"seconds": math.nan}, {"deal": 0},
    {"deal": 2147483648}, {"deal": "1234"}, {"daily": "yesterday"}, {"daily": 20261129},
    {"practice": "no"}, {"rules": 7},
])
def test_malformed_round_is_none(change):
    data: dict = {}
    save_round(data, RoundState(position=POSITION, suits=2, deal=1234, daily=D))
    data["round"].update(change)
    assert load_round(data) is None


@pytest.mark.parametrize("missing", ["position", "suits"])
def test_round_missing_required_is_none(missing):
    data: dict = {}
    save_round(data, RoundState(position=POSITION, suits=2))
    del data["round"][missing]
    assert load_round(data) is None


def test_round_not_a_table_is_none():
    assert load_round({"round": "x"}) is None
    assert load_round({}) is None


def test_round_optional_keys_default():
    assert load_round({"round": {"position": POSITION, "suits": 1}}) == RoundState(position=POSITION, suits=1)
