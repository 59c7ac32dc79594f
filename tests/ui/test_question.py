"""SPEC §14 in a round: "Could this still be won?" says it peeks first, runs in the background
(the table stays live), turns the round into practice, and tells the answer."""

from __future__ import annotations

import asyncio
import tomllib

from spider_tui.ui.widgets.dialogs import Confirm
from spider_tui.ui.screens.game_screen import GameScreen

SIZE = (100, 30)


async def wait_for(pilot, check, seconds=60.0):
    for _ in range(int(seconds / 0.05)):
        if check():
            return True
        await pilot.pause(0.05)
    return False


def notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_asking_says_it_peeks_first_and_no_leaves_the_round_recorded(make_app):
    app = make_app(deal=1, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.dialog, Confirm)
        assert "face-down cards and the stock" in app.dialog.question and "practice" in app.dialog.question
        await pilot.press("n")
        await pilot.pause()
        assert app.dialog is None and isinstance(app.screen, GameScreen) and not app.table.practice
        assert app.screen.question.running is None  # not asked


async def test_yes_turns_the_round_into_practice_and_tells_the_answer(make_app, data_dir):
    app = make_app(deal=1, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and app.table.practice
        assert "practice" in screen.title_text
        # The table stays live while the solver works: a move goes through at once.
        await pilot.press("9", "5")
        assert app.table.game.moves == 1
        # The answer is about the position asked about (move 0): the move made since is not one
        # of the solution's, or it is; the status line says it there, else a note says which
        # position it is about (issue 22 item 8).
        assert await wait_for(pilot, lambda: app.table.answer is not None)
        await pilot.pause()
        told = [n for n in notes(app) if n.startswith("About the position after move 0")]
        if told:  # it came after the move
            assert "can still be won" in told[0] and "face-down cards and the stock" in told[0]
        # Back at the position asked about, the status line says the answer.
        await pilot.press("u")
        await pilot.pause()
        assert app.table.game.moves == 0
        assert "can still be won" in str(screen.query_one("#status").render())
        # Leaving the round: a practice round is not counted.
        await pilot.press("n")
        await pilot.pause()
        if isinstance(app.dialog, Confirm):
            await pilot.press("y")
            await pilot.pause()
    save = data_dir / "save.toml"
    data = tomllib.loads(save.read_text()) if save.exists() else {}
    assert not data.get("stats")


async def test_asking_again_stops_the_solver(make_app):
    # 4-suit deal 2074: the solver needs more than 10 s of CPU for it (deal 2 is solved in a second now)
    app = make_app(deal=2074, suits=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "y")
        await pilot.pause()
        q = app.screen.question.running
        assert q.thread.is_alive()
        await pilot.press("w")
        await pilot.pause()
        assert q.cancelled and "Stopped asking the solver." in notes(app)
        await asyncio.to_thread(q.thread.join, 30)
        assert not q.thread.is_alive()
        assert not any(n.startswith(("Yes", "No", "About")) for n in notes(app))


# ---------------------------------------------------------------- "Winnable deals only" (start screen)
from spider_tui.engine import Game  # noqa: E402
from spider_tui.ui.screens.start_screen import StartScreen  # noqa: E402
from spider_tui.winnable import ProvedDeals, proves_winnable  # noqa: E402


async def test_winnable_only_is_remembered_and_new_deals_a_proved_number(make_app, data_dir):
    ProvedDeals(data_dir).add(2, 5)  # deal 5 at 2 suits: the solver proves it in well under a second
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, StartScreen)
        assert "off" in str(app.screen.query_one("#winnable").render())
        await pilot.press("2", "w")
        await pilot.pause()
        assert app.settings.winnable_only and "on" in str(app.screen.query_one("#winnable").render())
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.table.deal_number == 5 and app.table.game.suits == 2
    app.winnable.stop()
    data = tomllib.loads((data_dir / "save.toml").read_text())
    assert data["settings"]["winnable_only"] is True
    assert 5 not in ProvedDeals(data_dir).load()[2]  # each proved number is dealt once


async def test_with_none_proved_yet_new_finds_one_in_the_background(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "n")
        await pilot.pause()
        # Either the prover (started by w) was quicker, or New says it is finding one.
        assert isinstance(app.screen, GameScreen) or any(
            n.startswith("Finding a winnable deal at 1 suit") for n in notes(app))
        assert await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        number = app.table.deal_number
    app.winnable.stop()
    assert proves_winnable(number, 1)
    assert app.table.game.to_text() == Game.new(number, suits=1).to_text()


async def test_the_question_shows_whole_with_its_chips_at_80x24(make_app):
    """The question's paragraphs and its Yes/No chips all fit in the dialog (they were cut off)."""
    from spider_tui.ui.widgets.dialogs import Confirm

    app = make_app(deal=5, suits=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        dialog = app.dialog
        assert isinstance(dialog, Confirm)
        for chip in ("#yes", "#no"):
            region = dialog.query_one(chip).region
            assert region.height == 1 and dialog.region.contains_region(region), chip
