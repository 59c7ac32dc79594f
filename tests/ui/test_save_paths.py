"""Issue 9, items 9-11 and 13: a round is recorded once by its identity, every exit keeps the round,
a full disk loses nothing, and writes never run on the UI thread."""

from __future__ import annotations

import fcntl
import os
import threading

from spider_tui.engine import Game
from spider_tui.store import SaveError, SaveFile, summary
from spider_tui.store.rounds import latest_round
from spider_tui.ui.widgets.dialogs import Won
from spider_tui.ui.screens.game_screen import GameScreen

from .conftest import NEARLY_WON

SIZE = (100, 30)


def on_disk(data_dir) -> dict:
    return SaveFile(data_dir / "save.toml").load()


def played(data_dir, suits: str = "1") -> int:
    return summary(on_disk(data_dir))["suits"][suits]["played"]


async def save_a_round(make_app, data_dir) -> None:
    """Leave an unfinished deal-77 round in the file (as a quit does)."""
    app = make_app(deal=77, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "q")
    assert latest_round(on_disk(data_dir)) is not None


async def win_here(app, pilot) -> None:
    app.table.game = Game.from_text(NEARLY_WON)
    await pilot.press("2", "1")
    await pilot.pause()
    assert isinstance(app.dialog, Won)


async def test_a_round_continued_in_two_logins_and_won_in_both_counts_once(make_app, data_dir):
    await save_a_round(make_app, data_dir)
    a, b = make_app(), make_app()
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        await pa.press("c")
        await pb.press("c")
        await pa.pause()
        await pb.pause()
        assert isinstance(a.screen, GameScreen) and isinstance(b.screen, GameScreen)
        await win_here(a, pa)
        assert a.book.writer.flush(5)
        await win_here(b, pb)
        assert b.book.writer.flush(5)
    s = summary(on_disk(data_dir))["suits"]["1"]
    assert (s["played"], s["won"]) == (1, 1)


async def test_a_live_round_ended_by_another_login_then_here_counts_once(make_app, data_dir):
    a = make_app(deal=8, suits=1)
    async with a.run_test(size=SIZE) as pa:
        await pa.press("d")
        a.store_round()  # the autosave a moment after the move
        assert a.book.writer.flush(5)
        b = make_app()
        async with b.run_test(size=SIZE) as pb:
            await pb.press("n")  # New over A's saved round: asks, then ends it and counts it
            await pb.pause()
            await pb.press("y")
            await pb.pause()
            assert b.book.writer.flush(5)
        assert played(data_dir) == 1
        await pa.press("d")  # A plays on: its autosave must not bring the ended round back
        a.store_round()
        assert a.book.writer.flush(5)
        await pa.press("n", "y")  # and A ends it too
        await pa.pause()
        assert a.book.writer.flush(5)
    assert played(data_dir) == 1


async def test_ctrl_q_right_after_a_move_keeps_the_round(make_app, data_dir):
    app = make_app(deal=12, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "ctrl+q")
        await pilot.pause()
        assert not app.is_running  # Ctrl+Q quits from a round
    found = latest_round(on_disk(data_dir))
    assert found is not None and found[1].moves == 1 and found[1].deal == 12


async def test_a_full_disk_loses_no_result(make_app, data_dir, monkeypatch):
    real = SaveFile._write_atomic
    full = [True]

    def write(self, payload):
        if full[0]:
            raise SaveError(f"Could not write the save file {self.path}: no space left on device. "
                            f"The previous save is unchanged.")
        return real(self, payload)

    monkeypatch.setattr(SaveFile, "_write_atomic", write)
    app = make_app(deal=77, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await win_here(app, pilot)
        app.book.writer.flush(5)
        await pilot.pause()
        messages = " ".join(n.message for n in app.told)
        assert "no space left" in messages and "kept" in messages
        assert summary(app.book.data)["suits"]["1"]["won"] == 1  # kept in memory, shown in stats
        assert not (data_dir / "save.toml").exists()
        full[0] = False  # space again: the next write carries the result
        await pilot.press("escape", "2")  # a setting change is the next write
        app.book.set_setting("suits", 2)
        assert app.book.writer.flush(5)
    s = summary(on_disk(data_dir))["suits"]["1"]
    assert (s["played"], s["won"]) == (1, 1)


async def test_writes_never_run_on_the_ui_thread(make_app, data_dir, monkeypatch):
    threads = []
    real = SaveFile.update

    def update(self, fn):
        threads.append(threading.current_thread())
        return real(self, fn)

    monkeypatch.setattr(SaveFile, "update", update)
    app = make_app(deal=77, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        app.store_round()
        await win_here(app, pilot)
        app.book.set_setting("suits", 4)
        assert app.book.writer.flush(5)
    assert threads and threading.main_thread() not in threads


async def test_a_lock_held_elsewhere_does_not_stop_play(make_app, data_dir):
    app = make_app(deal=77, suits=1)
    app.book.save.lock_timeout = 0.2
    async with app.run_test(size=SIZE) as pilot:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(data_dir / "save.toml.lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)  # another spider holds the lock
        try:
            await pilot.press("d")
            app.store_round()
            await win_here(app, pilot)  # play goes on; the result waits
            assert not app.book.writer.flush(3)
            assert summary(app.book.data)["suits"]["1"]["won"] == 1
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        app.book.set_setting("suits", 2)
        assert app.book.writer.flush(5)
    assert played(data_dir) == 1
