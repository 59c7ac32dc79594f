"""`spider stats` output (SPEC §9): the JSON for scripts and the table for people."""

from __future__ import annotations

import io
import json
from datetime import date

from rich.console import Console

from spider_tui.store import RoundResult, SaveFile, format_seconds, record_result, stats_json, stats_table, summary


def render(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def sample() -> dict:
    data: dict = {}
    record_result(data, RoundResult(suits=1, won=True, moves=151, seconds=812.4, daily=date(2026, 11, 29)))
    record_result(data, RoundResult(suits=1, won=False, moves=20, seconds=1898.6))
    record_result(data, RoundResult(suits=2, won=False, moves=20, seconds=0))
    return data


def test_stats_json_is_the_summary():
    data = sample()
    assert json.loads(stats_json(data)) == {**summary(data), "rules": {}}
    assert '"win_rate": null' in stats_json(data)  # 4 suits: nothing played
    assert "\n" not in stats_json(data)


def test_stats_json_without_a_save_file(save):
    parsed = json.loads(stats_json(save.load()))
    assert parsed["suits"]["4"]["daily"]["fastest_seconds"] is None
    assert parsed["total_play_seconds"] == 0.0 and parsed["daily_rounds_won"] == 0


def test_format_seconds():
    assert format_seconds(0) == "0:00"
    assert format_seconds(45) == "0:45"
    assert format_seconds(812.4) == "13:32"
    assert format_seconds(3599.6) == "1:00:00"
    assert format_seconds(3723) == "1:02:03"
    assert format_seconds(36000) == "10:00:00"


def test_table_shows_every_stat():
    text = render(stats_table(sample()))
    for label in ("1 suit", "2 suits", "4 suits", "Played", "Won", "Win rate", "Fewest moves", "Fastest time",
                  "Daily: played", "Daily: won", "Daily: win rate", "Daily: fewest moves", "Daily: fastest time",
                  "Total play time", "Daily rounds won"):
        assert label in text
    assert "50.0%" in text and "151" in text and "13:32" in text and "45:11" in text
    assert "streak" not in text.lower() and "score" not in text.lower()
    assert max(len(line) for line in text.splitlines()) <= 80


def test_table_without_a_save_file(tmp_path):
    text = render(stats_table(SaveFile(tmp_path / "none" / "save.toml").load()))
    assert "—" in text and "0:00" in text


def test_table_ascii():
    text = render(stats_table({}, ascii=True))
    assert text.isascii()
    lines = text.splitlines()
    # the title on its own line, then the box's whole top edge (it was drawn beside the title)
    assert lines[0].rstrip() == "Spider stats" and lines[1].startswith("+-") and lines[1].rstrip().endswith("+")


def test_table_for_other_rules():
    data: dict = {}
    record_result(data, RoundResult(suits=4, rules="relaxed", won=True, moves=300, seconds=60))
    text = render(stats_table(data, "relaxed"))
    assert "relaxed" in text and "300" in text


# Issue 33 item 8: one rounding of times everywhere (a 29.5 s win read 0:29 in the Won panel and
# 0:30 as Fastest in the stats).
def test_a_time_reads_the_same_in_the_won_panel_the_stats_and_the_palast():
    from spider_tui.store.report import format_seconds
    from spider_tui.store.stats import RoundResult, record_result
    from spider_tui.ui.palast import lines

    for seconds in (29.4996, 29.5, 29.5004, 29.9996, 59.9999, 0.0, 3599.9996):
        data: dict = {"version": 1}
        record_result(data, RoundResult(suits=1, won=True, moves=100, seconds=seconds))
        stored = data["stats"]["classic"]["1"]["fastest_seconds"]
        assert format_seconds(stored) == format_seconds(seconds), seconds
        if seconds < 3599:  # the race clock is m:ss only
            assert lines.clock(seconds) == format_seconds(seconds), seconds
