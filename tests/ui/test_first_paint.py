"""Issue 22, item 20: a round's first paint is the whole screen, painted once.

Textual's own footer composed empty and filled itself one refresh later, and a screen pushed
inside Textual's start-up batch was laid out before its footer's keys were mounted: the first
frame had no footer and left the cloth between the columns unpainted, and a second whole paint
followed ~25 ms later (SPEC §11's start budget).  The app's display is watched here: each
update Textual hands it, rendered as the terminal would get it, fed to a terminal emulator.
"""

from __future__ import annotations

import re

import pyte

from spider_tui.ui.screens.game_screen import GameScreen
from tests.waiting import until_app

SIZE = (100, 30)
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def watch_paints(app, kind: type = GameScreen) -> list[str]:
    """Every update the app really shows (none inside a batch, which Textual drops) of a screen
    of ``kind``, as the text written to the terminal."""
    paints: list[str] = []
    display = app._display

    def record(screen, update) -> None:
        if isinstance(screen, kind) and update is not None and not app._batch_count:
            paints.append(update.render_segments(app.console))
        display(screen, update)

    app._display = record
    return paints


def on_terminal(text: str) -> pyte.Screen:
    screen = pyte.Screen(*SIZE)
    pyte.Stream(screen).feed(text)
    return screen


async def check_first_paint(make_app, **launch) -> pyte.Screen:
    app = make_app(**launch)
    paints = watch_paints(app)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: paints and isinstance(app.screen, GameScreen))
    first = on_terminal(paints[0])
    lines = first.display
    assert "Moves: 0" in lines[0] and re.search(r"Retry +New\s*$", lines[0]), lines[0]
    assert max(len(CARD.findall(line)) for line in lines) == 10, "\n".join(lines)
    assert "Undo" in lines[-2] and "Give up" in lines[-2], "\n".join(lines)
    assert re.search(r"u Undo .*q Menu", lines[-1]), lines[-1]
    # every cell painted: the cloth between the columns and the bars' backgrounds too
    unpainted = [(y, x) for y in range(SIZE[1]) for x in range(SIZE[0]) if first.buffer[y][x].bg == "default"]
    assert not unpainted, unpainted[:10]
    return first


async def test_the_first_paint_of_a_round_from_the_command_line_is_the_whole_screen(make_app):
    await check_first_paint(make_app, deal=1, suits=1)


async def test_the_first_paint_of_a_two_suit_round_is_the_whole_screen(make_app):
    first = await check_first_paint(make_app, deal=7, suits=2)
    assert "Deal 7 · 2 suits" in first.display[0]


async def test_the_first_paint_of_the_start_screen_has_its_menu_and_footer(make_app):
    from spider_tui.ui.screens.start_screen import StartScreen

    app = make_app()
    paints = watch_paints(app, StartScreen)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: paints and isinstance(app.screen, StartScreen))
    first = on_terminal(paints[0])
    shown = "\n".join(first.display)
    assert "S P I D E R" in shown and "New game (n)" in shown, shown
    assert re.search(r"n New .*q Quit", first.display[-1]), first.display[-1]
    unpainted = [(y, x) for y in range(SIZE[1]) for x in range(SIZE[0]) if first.buffer[y][x].bg == "default"]
    assert not unpainted, unpainted[:10]
