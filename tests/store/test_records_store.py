"""records/ in the data dir (SPEC §16): one file a round, atomic, the newest 500, never the save file."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

from spider_tui import records
from spider_tui.records import Record
from spider_tui.session import SoloSession, round_state, table_from_state
from spider_tui.store import SaveFile, save_path
from spider_tui.store.book import SaveBook
from spider_tui.store.records import RecordsError, RecordStore
from spider_tui.store.rounds import latest_round


def a_record(i: int = 0, result: str = "left") -> Record:
    return Record(deal=1000 + i, suits=1, rules="classic", date=f"2026-12-01T21:{i // 60 % 60:02d}:{i % 60:02d}Z",
                  player="you", result=result, moves=1, seconds=3.0, actions=((2000, "deal"),))


def test_one_file_a_round_newest_first(tmp_path: Path):
    store = RecordStore(tmp_path)
    first = store.add(a_record(1))
    second = store.add(a_record(2))
    assert store.paths() == [second, first]
    assert first.parent == tmp_path / "records"
    assert first.read_text() == records.write(a_record(1))
    assert [e.deal for e in store.entries()] == ["1002", "1001"]
    assert store.find("last") == second and store.find("2") == first
    with pytest.raises(RecordsError, match="no record 3"):
        store.find("3")
    assert not list((tmp_path / "records").glob(".rec-*"))  # no temp file left


def test_the_newest_500_are_kept(tmp_path: Path):
    store = RecordStore(tmp_path, keep=5)
    made = [store.add(a_record(i)) for i in range(8)]
    assert store.paths() == list(reversed(made[3:]))


def test_keeps_500_by_default(tmp_path: Path):
    store = RecordStore(tmp_path)
    assert store.keep == 500
    for i in range(503):
        store.add(a_record(i))
    assert len(store.paths()) == 500


def test_import_checks_by_replaying(tmp_path: Path):
    store = RecordStore(tmp_path / "d")
    good = tmp_path / "good.txt"
    good.write_text(records.write(a_record(1)))
    path, record = store.import_file(good)
    assert record == a_record(1) and path.exists()
    bad = tmp_path / "bad.txt"
    bad.write_text(records.write(a_record(1)).replace("2000 deal", "2000 3>3"))
    with pytest.raises(records.RecordError, match="line 10"):
        store.import_file(bad)
    assert len(store.paths()) == 1  # nothing else changed


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_data_dir_says_so_and_loses_nothing(tmp_path: Path):
    save = SaveFile(save_path(tmp_path))
    save.update(lambda d: d.setdefault("settings", {}).update(suits=2))
    before = save.path.read_bytes()
    os.chmod(tmp_path, 0o500)
    try:
        with pytest.raises(RecordsError, match="could not be written"):
            RecordStore(tmp_path).add(a_record())
    finally:
        os.chmod(tmp_path, 0o700)
    assert save.path.read_bytes() == before


def test_a_record_that_cannot_be_written_never_touches_the_save_file(tmp_path: Path):
    """records/ is a file, not a directory (as good as a full disk for this): a notice, the save intact."""
    save = SaveFile(save_path(tmp_path))
    save.update(lambda d: d.setdefault("settings", {}).update(suits=2))
    before = save.path.read_bytes()
    (tmp_path / "records").write_text("in the way")
    with pytest.raises(RecordsError, match="could not be written"):
        RecordStore(tmp_path).add(a_record())
    assert save.path.read_bytes() == before


# ---------------------------------------------------------------- rounds that end write a record

def session_in(tmp_path: Path):
    book = SaveBook(SaveFile(save_path(tmp_path)))
    store = RecordStore(tmp_path)
    kept: list[Record] = []
    done = threading.Event()

    def keep(record: Record) -> None:
        store.add(record)
        kept.append(record)
        done.set()

    session = SoloSession(lambda: book.data, book.write, rng=random.Random(1), keep_record=keep)
    return book, store, session, kept


def test_a_round_that_ends_writes_one_record_not_in_the_save_file(tmp_path: Path):
    book, store, session, kept = session_in(tmp_path)
    t = session.deal(4321, 2)
    t.resume()
    t.deal()
    t.play(t.game.hint() or "deal")
    assert session.give_up()
    assert book.writer.flush(30)
    assert len(kept) == 1 and kept[0].result == "gave up"
    (path,) = store.paths()
    record, _ = records.read_checked(path.read_bytes())
    assert record.deal == 4321 and record.moves == t.moves
    assert "records" not in book.save.path.read_text() and "4321\n" not in book.save.path.read_text()
    session.end(won=False)  # once only
    assert book.writer.flush(30) and len(store.paths()) == 1


def test_an_unfinished_round_keeps_its_actions_across_continue(tmp_path: Path):
    book, store, session, kept = session_in(tmp_path)
    t = session.deal(99, 1)
    t.resume()
    t.deal()
    t.play(t.game.hint() or "deal")
    session.keep()
    assert book.writer.flush(30)
    # a new instance (quit, start again, Continue)
    book2 = SaveBook(SaveFile(save_path(tmp_path)))
    token, state = latest_round(book2.data)
    back = table_from_state(state)
    assert back.log == t.log
    back.resume()
    back.deal()
    session2 = SoloSession(lambda: book2.data, book2.write, keep_record=lambda r: (store.add(r), kept.append(r)))
    session2.begin(back, token=token)
    session2.end(won=False)
    assert book2.writer.flush(30)
    assert len(kept) == 1
    assert [m for _, m in kept[0].actions] == [m for _, m in t.log] + ["deal"]
    records.check(kept[0])


def test_an_abandoned_saved_round_becomes_a_record(tmp_path: Path):
    book, store, session, kept = session_in(tmp_path)
    t = session.deal(99, 1)
    t.resume()
    t.deal()
    session.keep()
    assert book.writer.flush(30)
    session.abandon_saved()
    assert book.writer.flush(30)
    assert len(kept) == 1 and kept[0].result in ("left", "stuck") and kept[0].deal == 99


def test_round_state_carries_the_log():
    from spider_tui.table import Table

    t = Table.new(5)
    t.deal()
    state = round_state(t)
    assert state.actions is not None and state.actions.endswith(" deal\n")
