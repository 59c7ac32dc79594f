"""The table screen offers what the session answers (``Session.can``, issue 28 item 6): keys
lit, dimmed or hidden from the answer; a refused key with a reason says it; a lesson's New
is Next through its own screen's binding."""

from __future__ import annotations

from spider_tui.ui.screens.game_screen import GameScreen, NextRoundScreen

SIZE = (100, 30)


def footer(screen) -> dict[str, tuple[str, bool]]:
    """The footer's keys: key -> (label, lit)."""
    return {key: (a.binding.description, a.enabled) for key, a in screen.active_bindings.items() if a.binding.show}


async def test_undo_off_hides_u_and_u_says_why(make_app):
    app = make_app(deal=3, suits=1, rules="undo-off")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "u" not in footer(app.screen)
        await pilot.press("8", "9")  # a move, so there would be something to undo
        await pilot.pause()
        assert app.table.moves == 1
        await pilot.press("u")
        await pilot.pause()
        assert app.table.moves == 1 and app.table.status_line == "Undo is off in this round."


async def test_no_jokers_left_dims_j_and_j_says_why(make_app):
    app = make_app(deal=3, suits=1, rules="joker")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert footer(app.screen)["J"][1] is True
        app.table.game.jokers_left = 0
        app.table.say("")
        app.screen.sync()
        await pilot.pause()
        assert footer(app.screen)["J"] == ("Joker", False)  # still shown, greyed
        await pilot.press("J")
        await pilot.pause()
        assert not app.table.joker_pending and app.table.status_line == "No jokers left."


async def test_a_lesson_says_next_and_a_round_says_new(make_app):
    app = make_app(deal=3, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(app.screen) is GameScreen and footer(app.screen)["n"][0] == "New"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        from spider_tui.ui import messages

        app.post_message(messages.OpenLesson(1))
        for _ in range(200):
            await pilot.pause()
            if isinstance(app.screen, NextRoundScreen) and app.screen.is_mounted:
                break
        screen = app.screen
        assert isinstance(screen, NextRoundScreen) and footer(screen)["n"][0] == "Next"
        assert "Next" in str(screen.query_one("#new").render())
