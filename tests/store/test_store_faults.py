"""Issue 9, items 3, 6 and 12: the lock file, deep nesting, one bad value never costs the stats."""

from __future__ import annotations

import os

import pytest

from spider_tui.store import RoundResult, SaveError, SaveFile, get_settings, record_result, summary


def bad_files(directory):
    return sorted(directory.glob("save.toml.bad-*"))


STATS = b"[stats.classic.1]\nplayed = 12\nwon = 5\nfewest_moves = 130\n"


def test_one_mistyped_setting_keeps_the_stats(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b'[settings]\nsuits = "2"\nfour_color = true\n\n' + STATS)
    data = save.load()
    s = summary(data)["suits"]["1"]
    assert (s["played"], s["won"], s["fewest_moves"]) == (12, 5, 130)
    assert get_settings(data).four_color is True and get_settings(data).suits == 1
    notice = save.take_notice()
    assert "settings.suits" in notice and "four_color" not in notice
    [kept] = bad_files(data_dir)
    assert b'suits = "2"' in kept.read_bytes()


@pytest.mark.parametrize("line, name", [
    (b"played = -3", "played"),
    (b"fewest_moves = -1", "fewest_moves"),
    (b"daily_played = 9223372036854775808", "daily_played"),
    (b"fastest_seconds = -5.0", "fastest_seconds"),
    (b"fastest_seconds = inf", "fastest_seconds"),
    (b"fastest_seconds = nan", "fastest_seconds"),
])
def test_impossible_counts_are_bad_values(save, data_dir, line, name):
    data_dir.mkdir()
    save.path.write_bytes(b"[stats.classic.2]\nwon = 1\n" + line + b"\n[stats.classic.1]\nplayed = 4\n")
    data = save.load()
    assert name not in data["stats"]["classic"]["2"]
    assert data["stats"]["classic"]["1"] == {"played": 4}
    assert f"stats.classic.2.{name}" in save.take_notice()


def test_won_above_played_is_a_bad_value(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b"[stats.classic.1]\nplayed = 2\nwon = 3\ndaily_played = 1\ndaily_won = 1\n")
    data = save.load()
    assert data["stats"]["classic"]["1"] == {"played": 2, "daily_played": 1, "daily_won": 1}
    assert "stats.classic.1.won" in save.take_notice()


def test_a_count_near_the_limit_is_kept_and_written_back(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b"[stats.classic.1]\nplayed = 9223372036854775806\n")
    save.update(lambda d: record_result(d, RoundResult(suits=1, won=False, moves=3, seconds=1.0)))
    assert summary(save.load())["suits"]["1"]["played"] == 2**63 - 1 and save.take_notice() is None


def test_deeply_nested_file_is_set_aside_not_a_crash(save, data_dir):
    data_dir.mkdir()
    raw = b"x = " + b"[" * 500 + b"]" * 500 + b"\n"
    save.path.write_bytes(raw)
    data = save.load()
    assert "x" not in data
    assert "could not be read" in save.take_notice()
    [kept] = bad_files(data_dir)
    assert kept.read_bytes() == raw
    assert SaveFile(save.path).load() == data  # the next start is clean


def test_lock_file_symlink_is_not_followed(save, data_dir, tmp_path):
    data_dir.mkdir()
    outside = tmp_path / "outside" / "victim"
    outside.parent.mkdir()
    os.symlink(outside, save.lock_path)
    with pytest.raises(SaveError, match="symbolic link"):
        save.update(lambda d: d.setdefault("x", 1))
    assert not outside.exists()
    assert not save.path.exists()


def test_lock_file_that_is_not_a_regular_file_is_refused(save, data_dir):
    data_dir.mkdir()
    os.mkfifo(save.lock_path)
    with pytest.raises(SaveError, match="not a regular file"):
        save.update(lambda d: d.setdefault("x", 1))


def test_notice_with_escapes_in_key_names_is_shown_safely_by_spider_stats(data_dir, capsys):
    from spider_tui.cli import main

    data_dir.mkdir()
    (data_dir / "save.toml").write_text('[stats]\n"\\u001b]0;PWNED\\u0007\\u001b[2J" = 5\n'
                                        '"[@click=app.screenshot()]CLICK[/]" = 6\n')
    assert main(["stats", "--data-dir", str(data_dir)]) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "\\x1b]0;PWNED\\x07" in err
    assert "[@click=app.screenshot()]CLICK[/]" in err
