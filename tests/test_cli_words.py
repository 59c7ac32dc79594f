"""Issue 10 item 13: the words of the command line and of the stats (SPEC §9, §10)."""

from __future__ import annotations

import json

from spider_tui.cli import main
from spider_tui.store import RoundResult, SaveFile, record_result


def test_help_names_the_rules_words_and_points_to_f1(capsys):
    try:
        main(["--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    for word in ("classic", "relaxed", "open", "undo-off", "scorpion", "joker", "scoring", "fast", "practice",
                 "spiderette", "simple-simon"):
        assert word in out
    assert "F1" in out


def test_a_bad_stats_argument_names_spider_stats(capsys, tmp_path):
    assert main(["stats", "--foo", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spider stats: ") and "--foo" in err and err.count("\n") == 1


def saved_with_special_rules(tmp_path):
    save = SaveFile(tmp_path / "save.toml")

    def change(d):
        record_result(d, RoundResult(suits=1, won=True, moves=140, seconds=600))
        record_result(d, RoundResult(suits=4, rules="relaxed+joker", won=True, moves=300, seconds=60))

    save.update(change)


def test_stats_json_has_the_special_rules_beside_classic(capsys, tmp_path):
    saved_with_special_rules(tmp_path)
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["suits"]["1"]["won"] == 1 and out["suits"]["4"]["played"] == 0  # classic only
    assert out["rules"]["relaxed+joker"]["4"]["won"] == 1
    assert out["rules"]["relaxed+joker"]["4"]["fewest_moves"] == 300
    assert "classic" not in out["rules"]


def test_stats_table_shows_the_special_rules(capsys, tmp_path):
    saved_with_special_rules(tmp_path)
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "relaxed+joker" in out and "300" in out
