"""spider export / import / replay / --ghost (SPEC §16): bad input is one line and exit 2, nothing else changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from spider_tui import cli, records
from spider_tui.records import Record
from spider_tui.store.records import RecordStore


def a_record(deal: int = 1234) -> Record:
    return Record(deal=deal, suits=2, rules="classic", date="2026-12-01T21:30:00Z", player="you", result="left",
                  moves=1, seconds=4.5, actions=((1200, "deal"),))


@pytest.fixture
def data(tmp_path: Path, monkeypatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    return d


def test_export_prints_the_record_as_it_is_on_disk(data, capsys):
    store = RecordStore(data)
    store.add(a_record(1))
    path = store.add(a_record(2))
    assert cli.main(["export"]) == 0
    assert capsys.readouterr().out == path.read_text()
    assert cli.main(["export", "2"]) == 0
    assert "deal: 1\n" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [(["export", "7"], "no record 7"), (["export", "nope"], "last or a number"),
                                         (["replay", "3"], "no record 3"), (["--ghost", "last"], "no record last")])
def test_missing_records_are_one_line_and_exit_2(data, capsys, argv, words):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_import_adds_a_checked_record(data, tmp_path, capsys):
    f = tmp_path / "r.txt"
    f.write_text(records.write(a_record()))
    assert cli.main(["import", str(f)]) == 0
    assert "spider · deal 1234 · 2 suits" in capsys.readouterr().out
    assert len(RecordStore(data).paths()) == 1


@pytest.mark.parametrize("text, words", [
    ("not a record\n", "line 1: not a record"),
    (records.write(a_record()).replace("1200 deal", "1200 4>4:1"), "line 10: 4>4:1"),
    (records.write(a_record()).replace("moves: 1", "moves: 5"), "moves"),
    ("\x1b]0;x\x07\n", "line 1"),
])
def test_import_refuses_what_does_not_replay(data, tmp_path, capsys, text, words):
    f = tmp_path / "bad.txt"
    f.write_text(text)
    assert cli.main(["import", str(f)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "\x1b" not in err
    assert not (data / "records").exists() or not RecordStore(data).paths()


def test_import_of_a_missing_or_special_file(data, capsys):
    assert cli.main(["import", "/nonexistent/r.txt"]) == 2
    assert "can't read" in capsys.readouterr().err
    assert cli.main(["import", "/dev/zero"]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_tampered_file_on_disk_is_refused_by_replay(data, capsys):
    path = RecordStore(data).add(a_record())
    path.write_text(path.read_text().replace("1200 deal", "1200 undo"))
    assert cli.main(["replay", "last"]) == 2
    assert "line 10: undo" in capsys.readouterr().err
