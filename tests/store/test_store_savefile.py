"""The save file (SPEC §8): reading, bad files kept aside, unknown keys, atomic writes, errors."""

from __future__ import annotations

import errno
import fcntl
import os
import tempfile
import tomllib
from datetime import date, datetime
from pathlib import Path

import pytest

from spider_tui.store import (
    RoundResult,
    RoundState,
    SaveError,
    SaveFile,
    default_data,
    get_settings,
    load_round,
    record_result,
    save_round,
    set_setting,
    summary,
)

WIN = RoundResult(suits=1, won=True, moves=151, seconds=812.4)
LOSS = RoundResult(suits=1, won=False, moves=40, seconds=100.0)


def add(result: RoundResult):
    return lambda data: record_result(data, result)


def played(data: dict, suits: str = "1") -> int:
    return summary(data)["suits"][suits]["played"]


def bad_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("save.toml.bad-*"))


def temp_files(directory: Path) -> list[Path]:
    return sorted(directory.glob(".save.toml.*.tmp"))


# -- reading -------------------------------------------------------------------------------------


def test_missing_file_is_a_fresh_default_and_nothing_is_created(save, data_dir):
    assert save.load() == default_data()
    assert save.take_notice() is None
    assert not data_dir.exists()


def test_update_creates_the_directory_and_a_readable_file(save, data_dir):
    save.update(add(WIN))
    text = save.path.read_text("utf-8")
    assert text.startswith("#")
    parsed = tomllib.loads(text)
    assert parsed["version"] == 1
    assert parsed["stats"]["classic"]["1"]["fewest_moves"] == 151
    assert played(save.load()) == 1
    assert sorted(p.name for p in data_dir.iterdir()) == ["save.toml", "save.toml.lock"]


def test_nested_directory_is_created(tmp_path):
    save = SaveFile(tmp_path / "a" / "b" / "save.toml")
    save.update(add(LOSS))
    assert played(save.load()) == 1


def test_update_returns_the_data_written(save):
    data = save.update(add(WIN))
    assert data == save.load()


def test_empty_file_is_a_valid_fresh_save(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b"")
    assert save.load()["version"] == 1
    assert save.take_notice() is None and not bad_files(data_dir)


def test_settings_and_round_survive_a_reload(save):
    state = RoundState(position="suits: 1\n1: | As\n", suits=1, moves=3, seconds=2.5, deal=7)
    save.update(lambda d: (set_setting(d, "suits", 2), save_round(d, state)))
    data = SaveFile(save.path).load()
    assert get_settings(data).suits == 2
    assert load_round(data) == state




# -- two instances: no lost update ---------------------------------------------------------------


def test_lost_update_two_instances(save):
    a = SaveFile(save.path)
    b = SaveFile(save.path)
    a.update(add(LOSS))
    stale_a, stale_b = a.load(), b.load()  # both read first ...
    a.update(add(WIN))                      # ... then each applies its own result later
    b.update(add(RoundResult(suits=4, won=True, moves=500, seconds=2000.0)))
    a.update(add(LOSS))
    data = save.load()
    assert played(stale_a) == played(stale_b) == 1
    assert played(data, "1") == 3 and played(data, "4") == 1
    assert summary(data)["suits"]["1"]["won"] == 1
    assert summary(data)["total_play_seconds"] == pytest.approx(100 + 812.4 + 2000 + 100)


def test_update_with_a_failing_function_writes_nothing(save):
    save.update(add(LOSS))
    before = save.path.read_bytes()

    def boom(data):
        record_result(data, WIN)
        raise RuntimeError("caller bug")

    with pytest.raises(RuntimeError):
        save.update(boom)
    assert save.path.read_bytes() == before


# -- unknown keys --------------------------------------------------------------------------------

UNKNOWN = b"""\
version = 1
future_top = "keep me"
total_play_seconds = 10.0

[settings]
suits = 2
theme = "dark"

[stats.classic]
note = "preset-level key"

[stats.classic.1]
played = 4
won = 1
streak = 3

[stats.classic.3]
odd = true

[daily]
extra = [1, 2]

[daily.won]
1 = ["2026-11-28"]
9 = "x"

[plugins.colours]
red = "#f00"
"""


def test_unknown_keys_survive_an_update(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(UNKNOWN)
    save.update(add(RoundResult(suits=1, won=True, moves=90, seconds=5.0, daily=date(2026, 11, 29))))
    data = tomllib.loads(save.path.read_text("utf-8"))
    assert data["future_top"] == "keep me"
    assert data["settings"]["theme"] == "dark" and data["settings"]["suits"] == 2
    assert data["stats"]["classic"]["note"] == "preset-level key"
    assert data["stats"]["classic"]["1"]["streak"] == 3
    assert data["stats"]["classic"]["1"]["played"] == 5
    assert data["stats"]["classic"]["3"] == {"odd": True}
    assert data["daily"]["extra"] == [1, 2]
    assert data["daily"]["won"]["9"] == "x"
    assert data["daily"]["won"]["1"] == ["2026-11-28", "2026-11-29"]
    assert data["plugins"] == {"colours": {"red": "#f00"}}
    assert data["total_play_seconds"] == 15.0
    assert save.take_notice() is None


def test_wrong_values_of_the_right_type_are_not_fatal(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b'[settings]\nsuits = 3\n\n[round]\nposition = 5\n\n[daily.won]\n1 = ["nope"]\n')
    data = save.load()
    assert save.take_notice() is None and not bad_files(data_dir)
    assert get_settings(data).suits == 1
    assert load_round(data) is None
    assert summary(data)["daily_rounds_won"] == 0


# -- a file that can't be read is kept aside -----------------------------------------------------

BAD = [
    b"this is = not [toml",
    b"\xff\xfe\x00 not utf-8",
    b'version = "one"',
    b"version = 0",
    b"version = true",
    b"x = " + b"[" * 500 + b"]" * 500,   # nested too deeply for the reader (RecursionError)
    b"x = " + b"[" * 40 + b"]" * 40,     # readable, but deeper than any save file
]


# Bad values, not a bad file (issue 9, item 12): only they are dropped.
BAD_VALUES = [
    (b"total_play_seconds = \"long\"", "total_play_seconds"),
    (b"settings = 3", "settings"),
    (b"[settings]\nsuits = \"four\"", "settings.suits"),
    (b"[settings]\nascii = 1", "settings.ascii"),
    (b"stats = 3", "stats"),
    (b"[stats]\nclassic = 5", "stats.classic"),
    (b"[stats.classic]\n1 = 5", "stats.classic.1"),
    (b"[stats.classic.1]\nplayed = 1.5", "stats.classic.1.played"),
    (b"[stats.classic.1]\nwon = true", "stats.classic.1.won"),
    (b"[stats.classic.1]\nfastest_seconds = \"fast\"", "stats.classic.1.fastest_seconds"),
    (b"daily = []", "daily"),
    (b"[daily]\nwon = 3", "daily.won"),
    (b"[daily.won]\n1 = [3]", "daily.won.1"),
    (b"[daily.won]\n2 = \"2026-11-29\"", "daily.won.2"),
    (b"round = 5", "round"),
]


@pytest.mark.parametrize("raw, name", BAD_VALUES)
def test_a_bad_value_is_dropped_and_the_rest_kept(save, data_dir, raw, name):
    data_dir.mkdir()
    good = (b"[stats.spiderette.2]\nplayed = 7\nwon = 2\n" if not raw.startswith(b"stats")
            else b"[settings]\nfour_color = true\n")
    save.path.write_bytes(raw + b"\n" + good)
    save._clock = lambda: datetime(2026, 11, 29, 20, 15, 0)
    data = save.load()
    if raw.startswith(b"stats"):
        assert data["settings"]["four_color"] is True
    else:
        assert data["stats"]["spiderette"]["2"] == {"played": 7, "won": 2}
    kept = data_dir / "save.toml.bad-20261129-201500"
    assert kept.read_bytes() == raw + b"\n" + good
    notice = save.take_notice()
    assert notice is not None and "\n" not in notice and name in notice and kept.name in notice
    # The file was rewritten without the bad value: the next start is quiet and keeps the stats.
    again = SaveFile(save.path)
    assert again.load() == data and again.take_notice() is None
    assert len(bad_files(data_dir)) == 1


@pytest.mark.parametrize("raw", BAD)
def test_bad_file_is_kept_aside_and_reported_once(save, data_dir, raw):
    data_dir.mkdir()
    save.path.write_bytes(raw)
    save._clock = lambda: datetime(2026, 11, 29, 20, 15, 0)
    assert save.load() == default_data()
    kept = data_dir / "save.toml.bad-20261129-201500"
    assert kept.read_bytes() == raw
    assert not save.path.exists()
    notice = save.take_notice()
    assert notice is not None and "\n" not in notice
    assert notice.startswith("The save file could not be read")
    assert "save.toml.bad-20261129-201500" in notice and "new one was started" in notice
    assert save.take_notice() is None
    save.update(add(LOSS))  # a fresh file starts
    assert played(save.load()) == 1 and save.take_notice() is None


def test_newer_version_is_kept_aside_with_its_own_notice(save, data_dir):
    data_dir.mkdir()
    raw = b"version = 2\n[stats.classic.1]\nplayed = 99\n"
    save.path.write_bytes(raw)
    assert save.load() == default_data()
    [kept] = bad_files(data_dir)
    assert kept.read_bytes() == raw
    notice = save.take_notice()
    assert "newer version" in notice and kept.name in notice
    assert save.take_notice() is None


def test_update_on_a_bad_file_keeps_it_aside_then_writes(save, data_dir):
    data_dir.mkdir()
    save.path.write_bytes(b"[[[")
    save.update(add(WIN))
    assert [p.read_bytes() for p in bad_files(data_dir)] == [b"[[["]
    assert played(save.load()) == 1
    assert "could not be read" in save.take_notice()


def test_bad_file_names_are_unique(save, data_dir):
    data_dir.mkdir()
    save._clock = lambda: datetime(2026, 11, 29, 20, 15, 0)
    for raw in (b"first [", b"second [", b"third ["):
        save.path.write_bytes(raw)
        save.load()
    names = [p.name for p in bad_files(data_dir)]
    assert names == ["save.toml.bad-20261129-201500", "save.toml.bad-20261129-201500-2",
                     "save.toml.bad-20261129-201500-3"]
    assert [(data_dir / n).read_bytes() for n in names] == [b"first [", b"second [", b"third ["]


def test_a_good_file_written_meanwhile_is_not_moved_aside(save, data_dir, monkeypatch):
    """load() saw a bad file, but another instance replaced it before the lock: keep the good one."""
    data_dir.mkdir()
    save.path.write_bytes(b"[[[")
    other = SaveFile(save.path)
    real_locked = SaveFile._locked
    raced = []

    def locked_after_other_writes(self):
        if self is save and not raced:
            raced.append(True)
            other.update(add(WIN))  # the other instance replaces the bad file first
        return real_locked(self)

    monkeypatch.setattr(SaveFile, "_locked", locked_after_other_writes)
    data = save.load()
    assert played(data) == 1 and save.take_notice() is None


def test_unreadable_file_raises_save_error_and_is_not_moved(save, data_dir):
    save.path.mkdir(parents=True)  # save.toml is a directory: not readable as a file
    with pytest.raises(SaveError, match="Could not read the save file"):
        save.load()
    assert save.path.is_dir() and not bad_files(data_dir)


# -- atomic writes, errors -----------------------------------------------------------------------


def test_interrupted_rename_keeps_the_old_file(save, data_dir, monkeypatch):
    save.update(add(WIN))
    before = save.path.read_bytes()

    def no_rename(src, dst):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(SaveError, match="input/output error") as info:
        save.update(add(LOSS))
    assert "previous save is unchanged" in str(info.value)
    monkeypatch.undo()
    assert save.path.read_bytes() == before
    assert played(SaveFile(save.path).load()) == 1
    assert not temp_files(data_dir)


def test_full_disk_raises_save_error_and_keeps_the_old_file(save, data_dir, monkeypatch):
    save.update(add(WIN))
    before = save.path.read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SaveError, match="no space left on device"):
        save.update(add(LOSS))
    monkeypatch.undo()
    assert save.path.read_bytes() == before
    assert not temp_files(data_dir)


def test_read_only_file_system_raises_save_error(save, data_dir, monkeypatch):
    save.update(add(WIN))
    before = save.path.read_bytes()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(SaveError, match="read-only file system"):
        save.update(add(LOSS))
    monkeypatch.undo()
    assert save.path.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_directory_raises_save_error(save, data_dir):
    save.update(add(WIN))
    before = save.path.read_bytes()
    data_dir.chmod(0o500)
    try:
        with pytest.raises(SaveError):
            save.update(add(LOSS))
        assert save.load() == tomllib.loads(before.decode())
    finally:
        data_dir.chmod(0o700)
    assert save.path.read_bytes() == before


def test_data_dir_that_is_a_file_raises_save_error(tmp_path):
    (tmp_path / "data").write_text("not a directory")
    with pytest.raises(SaveError, match="lock"):
        SaveFile(tmp_path / "data" / "save.toml").update(add(LOSS))


def test_lock_held_too_long_raises_save_error(save, data_dir):
    save.update(add(LOSS))
    fd = os.open(save.lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        quick = SaveFile(save.path, lock_timeout=0.05)
        with pytest.raises(SaveError, match="locked by another spider"):
            quick.update(add(WIN))
    finally:
        os.close(fd)
    assert played(save.load()) == 1
    quick.update(add(WIN))
    assert played(save.load()) == 2


def test_stray_temp_file_is_never_the_save_and_is_cleaned_up(save, data_dir):
    save.update(add(WIN))
    stray = data_dir / ".save.toml.abc123.tmp"
    stray.write_bytes(b"version = 1\n[stats.classic.1]\nplayed = 999\n")
    assert played(save.load()) == 1
    save.update(add(LOSS))
    assert not stray.exists()
    assert played(save.load()) == 2
