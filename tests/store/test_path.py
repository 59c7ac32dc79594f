"""The path (SPEC §15): levels with what good play wins beside the player's record; the next
level suggested once, after 3 wins at a level and not before; every level open."""

from __future__ import annotations

from spider_tui.store.path import LEVELS, level_line, mark_suggested, record, suggestion
from spider_tui.store import RoundResult, record_result


def results(data, suits, won, lost=0, rules="classic"):
    for _ in range(won):
        record_result(data, RoundResult(suits=suits, won=True, moves=150, seconds=700.0, rules=rules))
    for _ in range(lost):
        record_result(data, RoundResult(suits=suits, won=False, moves=90, seconds=300.0, rules=rules))


def test_levels_name_the_beginner_and_competition_levels_and_what_good_play_wins():
    assert [lv.suits for lv in LEVELS] == [1, 2, 4]
    lines = [level_line(lv, {}) for lv in LEVELS]
    assert "beginner" in lines[0] and "nearly all" in lines[0]
    assert "about 4 in 5" in lines[1]
    assert "competition" in lines[2] and "about 1 in 3" in lines[2]


def test_record_beside_each_level():
    data: dict = {}
    results(data, 2, won=2, lost=3)
    results(data, 2, won=4, rules="scorpion")  # other rules keep their own stats
    assert record(data, 2) == (2, 5)
    assert "won 2 of 5" in level_line(LEVELS[1], data)
    assert "not played yet" in level_line(LEVELS[0], data)


def test_suggestion_after_three_wins_not_before_and_only_once():
    data: dict = {}
    results(data, 1, won=2, lost=5)
    assert suggestion(data, 1) is None
    results(data, 1, won=1)
    said = suggestion(data, 1)
    assert said is not None and "2 suits" in said
    assert suggestion(data, 2) is None  # it is about the level played
    mark_suggested(data, 1)
    results(data, 1, won=5)
    assert suggestion(data, 1) is None  # once


def test_no_level_after_four_suits():
    data: dict = {}
    results(data, 4, won=9)
    assert suggestion(data, 4) is None


def test_two_suits_suggests_four():
    data: dict = {}
    mark_suggested(data, 1)
    results(data, 2, won=3)
    said = suggestion(data, 2)
    assert said is not None and "4 suits" in said


def test_spider_stats_prints_the_path(tmp_path, capsys):
    from spider_tui.cli import main

    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for words in ("1 suit", "beginner", "4 suits", "competition", "Played", "Won", "Win rate", "Fewest moves"):
        assert words in out, words
