"""The save book (store/book.py): what the UI is handed instead of the app's save plumbing."""

from __future__ import annotations

from spider_tui.store import RoundResult, SaveError, SaveFile, record_result
from spider_tui.store.book import SaveBook


def test_a_setting_is_in_memory_at_once_and_on_disk_after_the_writer(save):
    book = SaveBook(save)
    book.set_setting("suits", 2)
    assert book.settings.suits == 2
    assert book.writer.flush(5)
    assert SaveBook(SaveFile(save.path)).settings.suits == 2


def test_rules_this_version_does_not_know_read_as_classic_and_stay_in_the_file(save):
    book = SaveBook(save)
    book.set_setting("rules", "rules-from-the-future")
    assert book.settings.rules == "classic"
    assert book.data["settings"]["rules"] == "rules-from-the-future"


def test_an_unreadable_file_is_said_once_and_play_goes_on_with_defaults(data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "save.toml").mkdir()  # a directory where the file should be
    book = SaveBook(SaveFile(data_dir / "save.toml"))
    assert book.load_error is not None and "can't be kept" in book.load_error
    assert book.settings.suits == 1


def test_a_failing_write_is_said_once_and_its_recovery_once(save):
    book = SaveBook(save)
    error = SaveError("The disk is full.")
    said = book.written(None, error)
    assert said is not None and said[0] == "error" and "Nothing is lost yet" in said[1]
    assert book.written(None, error) is None  # not again while it keeps failing
    said = book.written({"settings": {}}, None)
    assert said == ("information", "The save file could be written again; nothing was lost.")
    assert book.written({"settings": {}}, None) is None


def test_reload_sees_other_instances_results_and_keeps_the_waiting_changes(save):
    mine, other = SaveBook(save), SaveBook(SaveFile(save.path))
    other.write(lambda d: record_result(d, RoundResult(suits=1, won=True, moves=100, seconds=60.0)))
    assert other.writer.flush(5)
    mine.set_setting("suits", 4)
    data, error = mine.reload()
    assert error is None and data["settings"]["suits"] == 4
    assert data["stats"], "the other instance's result is there"

