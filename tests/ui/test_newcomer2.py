"""Issue 22: what hurt a newcomer's first game, each checked as a player meets it."""

from __future__ import annotations

from spider_tui.ui.screens.game_screen import GameScreen

SIZE = (100, 30)


def row_text(widget) -> str:
    """What a one-line widget shows on screen (as painted, cut to its width)."""
    return "".join(seg.text for seg in widget.render_line(0)).rstrip()


async def test_the_top_bar_shows_the_whole_title_after_asking_the_solver(make_app):
    # Item 1: "Deal 7 · 2 suits" became "Deal 7 · practice · 2 suits", drawn in the old width:
    # the bar read "Deal 7 ·" and nothing more.
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and "practice" in screen.title_text
        await pilot.pause()
        shown = row_text(screen.query_one("#info"))
        assert "practice" in shown and "2 suits" in shown, shown
        assert screen.query_one("#moves").region.x > screen.query_one("#info").region.x + len(shown) - 1


def free_address() -> str:
    """A loopback address where nothing listens."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"ws://127.0.0.1:{port}"


async def test_palast_from_the_start_screen_types_the_name_into_the_name_field(make_app, monkeypatch):
    # Item 3: the cursor started in the Server field with its text selected, so the name replaced
    # the address.  Nothing listens at the default address here: the player is told what to do.
    from textual.widgets import Input

    import spider_tui.ui.palast.connect as connect

    url = free_address()
    monkeypatch.setattr(connect, "DEFAULT_SERVER", url)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, connect.ConnectScreen)
        await pilot.press(*"Newbie", "enter")
        for _ in range(200):
            await pilot.pause(0.05)
            said = str(app.screen.query_one("#c-status").render())
            if "Can't reach" in said:
                break
        assert app.screen.query_one("#c-name", Input).value == "Newbie"
        assert app.screen.query_one("#c-server", Input).value == url
        assert "spider server" in said and "address" in said, said
