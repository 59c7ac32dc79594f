"""Records in the app (SPEC §16): a round that ends is a record; x shares it through OSC 52; the
Records list; the replay on the table widgets (step, jump, play, hidden cards, play from here);
v reviews; a ghost races on the race line; after a Retry, t races the last try."""

from __future__ import annotations

import base64

from spider_tui import records
from spider_tui.ui.widgets.footer import Footer
from spider_tui.store.records import RecordStore
from spider_tui.ui.screens.ghost_screen import GhostScreen
from spider_tui.ui.screens.records_screen import RecordsScreen, ReplayScreen
from spider_tui.ui.widgets import Tableau
from tests.waiting import until


async def wait_for(pilot, pred, timeout: float = 30.0) -> None:
    await until(pred, timeout, pilot=pilot)


async def end_a_round(app, pilot, moves: int = 4) -> None:
    for _ in range(moves):
        await pilot.press("enter")
    await pilot.press("g")
    await pilot.press("y")
    await pilot.pause()
    assert app.book.writer.flush(20)


async def test_a_given_up_round_is_a_record_and_x_shares_it(make_app, data_dir):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot)
        store = RecordStore(data_dir)
        await wait_for(pilot, lambda: len(store.paths()) == 1)
        record, _ = store.load("last")
        assert record.deal == 11 and record.result == "gave up" and record.moves == app.table.moves
        written = []
        real = app._driver.write
        app._driver.write = lambda data: (written.append(data), real(data))[1]
        await pilot.press("x")
        await pilot.pause()
        line = records.share_line(record)
        assert line.startswith("spider · deal 11 · 2 suits · gave up after")
        assert f"\x1b]52;c;{base64.b64encode(line.encode()).decode()}\x07" in "".join(written)
        assert any(line in str(t.message) for t in app.told)  # shown as well


async def test_x_before_the_round_ends_copies_nothing(make_app):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await pilot.press("x")
        await pilot.pause()
        assert getattr(app, "_clipboard", "") in ("", None)
        assert "once the round is over" in app.table.status


async def test_records_list_and_replay_on_the_table_widgets(make_app, data_dir):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot, moves=3)
        final = app.table.game.to_text()
        await wait_for(pilot, lambda: len(RecordStore(data_dir).paths()) == 1)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RecordsScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        rp = screen.replay
        assert len(screen.query_one(Tableau).columns) == 10  # the round's own table widget
        assert not any(s.cursor_here for s in rp.table.column_states())  # no keyboard cursor in a replay
        assert rp.step == 0 and rp.table.game.moves == 0
        await pilot.press("right")
        assert rp.step == 1
        await pilot.press("end")
        assert rp.step == rp.last and rp.table.game.to_text().replace("\n", "") .startswith("suits: 2")
        assert rp.steps[-1].to_text() == final.replace("moves:", "moves:")  # same position as the round's end
        await pilot.press("left")
        assert rp.step == rp.last - 1
        await pilot.press("home")
        assert rp.step == 0
        down = sum(rp.table.game.down)
        await pilot.press("c")
        assert sum(rp.table.game.down) == 0 and down > 0  # hidden cards shown
        await pilot.press("c")
        assert sum(rp.table.game.down) == down
        await pilot.press("space")  # play at 1×: the steps come by themselves, to the end
        assert rp.speed == 1
        await wait_for(pilot, lambda: rp.step == rp.last, timeout=60)
        assert rp.speed == 0  # stopped at the end
        await pilot.press("home")
        screen.stop_playing()
        assert rp.cycle_speed() == 1 and rp.cycle_speed() == 4 and rp.cycle_speed() == 0  # Space: 1×, 4×, pause
        await pilot.press("space", "space")
        assert rp.speed in (4, 0)  # 4× (or, on a slow machine, already at the end and stopped)
        await pilot.press("home")
        assert rp.speed == 0
        await pilot.press("right")
        await pilot.press("p")  # play from here: a practice round at step 1
        await wait_for(pilot, lambda: type(app.screen).__name__ == "GameScreen")
        assert app.table.practice and app.table.game.to_text() == rp.steps[1].to_text()


async def test_a_replay_click_steps_forward(make_app, data_dir):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot, moves=2)
        await wait_for(pilot, lambda: len(RecordStore(data_dir).paths()) == 1)
        record, _ = RecordStore(data_dir).load("last")
        app.open_replay(record)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.query("#replay-next"))
        await pilot.pause()
        await pilot.click("#replay-next")
        assert app.screen.replay.step == 1
        await pilot.click("#replay-back")
        assert app.screen.replay.step == 0


async def test_v_after_a_given_up_round_reviews_it(make_app, data_dir):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot, moves=6)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        rp = app.screen.replay
        assert rp.table.status.startswith("Where did I lose it?")  # the progress line
        await wait_for(pilot, lambda: rp.table.status.startswith(("Still winnable", "This deal", "The solver")),
                       timeout=150)
        # deal 11, six hint moves at 2 suits: the solver finds a win from the end well within its share
        # (on a machine so loaded that it can't, the review says it couldn't decide: also an answer)
        assert rp.table.status.startswith(("Still winnable", "The solver couldn't"))


async def test_a_record_that_cannot_be_written_is_said_and_the_save_file_is_kept(make_app, data_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "records").write_text("in the way")  # as a full disk: records/ can't be written
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot, moves=2)
        await wait_for(pilot, lambda: any("record could not be written" in str(t.message) for t in app.told))
        assert app.book.writer.last_error is None
    from spider_tui.store import SaveFile

    data = SaveFile(data_dir / "save.toml").load()
    assert data["stats"]  # the round's result is in the save file


async def test_a_ghost_races_on_the_race_line(make_app, data_dir):
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await end_a_round(app, pilot, moves=3)
        await wait_for(pilot, lambda: len(RecordStore(data_dir).paths()) == 1)
        record, _ = RecordStore(data_dir).load("last")
        await pilot.press("r")  # Retry after the round: t offers the last try
        await pilot.pause()
        assert "race your last try" in app.table.status
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, GhostScreen))
        assert str(app.screen.query_one("#opponents").render()).startswith("last try")
        assert app.table.deal_number == 11 and app.table.moves == 0
        # a record with its times: the ghost is advanced by them against this round's play time
        timed = records.Record(deal=11, suits=2, rules="classic", date=record.date, player="ann", result="gave up",
                               moves=2, seconds=60.0, actions=((10_000, "deal"), (20_000, "deal")))
        app.race(timed)
        await wait_for(pilot, lambda: isinstance(app.screen, GhostScreen) and app.screen.ghost.record is timed
                       and app.screen.query("#opponents"))
        screen = app.screen
        now = [0.0]
        screen.table.clock = lambda: now[0]
        screen.table._running_since = 0.0

        def line() -> str:
            screen.show_ghost()
            return str(screen.query_one("#opponents").render())

        assert "ghost (ann)" in line() and "Moves   0" in line() and "playing" in line()
        now[0] = 15.0
        assert "Moves   1" in line() and "playing" in line()
        now[0] = 61.0
        assert "Moves   2" in line() and "gave up" in line()
        assert len(screen.query_one(Tableau).columns) == 10 and screen.table.game.moves == 0  # no ghost cards


async def test_the_records_heading_is_never_cut_at_80_columns(make_app, data_dir):
    """At 80×24 the heading's "Enter: replay" doesn't fit, so it is left out (the footer says
    it), never cut mid-word; at 120 columns it is there."""
    app = make_app(deal=11, suits=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await end_a_round(app, pilot, moves=2)
        await wait_for(pilot, lambda: len(RecordStore(data_dir).paths()) == 1)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RecordsScreen))
        await pilot.pause()
        head = str(app.screen.query_one("#records-head").render())
        assert head.rstrip().endswith("Time") and "Enter" not in head
        assert "Replay" in " ".join(k.description for k in app.screen.query_one(Footer).items())  # the footer still says it
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: "Enter: replay" in str(app.screen.query_one("#records-head").render()))
