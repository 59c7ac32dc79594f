"""Issue 9, items 1, 2 and 5: text from a file, a path or the command line is shown, never obeyed.

Markup (``[@click=...]``, ``[/]``, ``[x]``) and escape sequences go through every place that shows
such text: toasts, the start screen, the special-rules menu, the stats screen.
"""

from __future__ import annotations

import random

from textual.geometry import Region

from spider_tui.store import SaveFile
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import RulesScreen, StartScreen, StatsScreen
from spider_tui.ui_launch import Launch

from .conftest import TODAY, listen

SIZE = (100, 30)
CLICK = "[@click=app.screenshot('victim.txt','/tmp')]CLICKME[/]"
OSC = "\x1b]0;PWNED\x07\x1b[2J"


def toasts(app) -> list:
    return list(app.told)


def screen_text(screen) -> str:
    """Everything the screen's widgets draw, as plain text."""
    out = []
    for widget in screen.query("*"):
        if widget.size.area:
            out.extend(strip.text for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)))
    return "\n".join(out)


def assert_plain(app, *must_show: str) -> None:
    for note in toasts(app):
        assert note.markup is False
        assert "\x1b" not in note.message and "\x07" not in note.message
    shown = " ".join(n.message for n in toasts(app))
    for text in must_show:
        assert text in shown, shown


def make(data_dir, **launch) -> SpiderApp:
    app = SpiderApp(SaveFile(data_dir / "save.toml"), Launch(**launch), today=lambda: TODAY, rng=random.Random(5))
    listen(app)
    return app


def write(data_dir, text: str) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "save.toml").write_text(text, encoding="utf-8")


async def test_markup_in_a_stats_key_is_shown_not_run(data_dir, tmp_path):
    write(data_dir, f'[stats]\n"{CLICK}" = 5\n"{OSC.encode("unicode_escape").decode()}" = 6\n'.replace("\\x", "\\u00"))
    app = make(data_dir, deal=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert_plain(app, "[@click=app.screenshot(", "\\x1b]0;PWNED\\x07")


async def test_markup_in_the_data_dir_path_does_not_crash(tmp_path):
    data_dir = tmp_path / "a[/]b[x]c"
    (data_dir / "save.toml").mkdir(parents=True)  # unreadable: the error names the path
    app = make(data_dir, deal=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert_plain(app, "a[/]b[x]c")


async def test_a_bad_token_in_the_saved_round_is_shown_as_written(data_dir):
    write(data_dir, '[rounds.abc]\nposition = "suits: 1\\n1: | p3[x]q\\n"\nsuits = 1\nmoves = 4\nsaved_at = 5.0\n')
    app = make(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert_plain(app, "p3[x]q")


async def test_escapes_in_settings_and_preset_keys_never_reach_the_screen(data_dir):
    esc_rules = OSC.encode("unicode_escape").decode().replace("\\x", "\\u00")
    write(data_dir, f'[settings]\nrules = "{esc_rules}"\n\n[stats."{esc_rules}".1]\nplayed = 1\n'
                    f'\n[stats."{CLICK}".2]\nplayed = 2\n')
    app = make(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "\x1b" not in screen_text(app.screen)
        await pilot.press("o")  # unknown saved rules: the menu opens on the defaults (item 5)
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "\x1b" not in screen_text(app.screen)
        await pilot.press("escape", "s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert "\x1b" not in screen_text(app.screen)
        # The stats box of a round (issue 22 item 18), a page at a time: the rest is further down.
        text = "\n".join(line.plain for line in app.screen.dialog.lines)
        assert "\x1b" not in text and "\\x1b]0;PWNED\\x07" in text and CLICK in text
    # The unknown rules name is kept in the file (a newer spider may know it).
    assert "rules = " in (data_dir / "save.toml").read_text() or not (data_dir / "save.toml.bad").exists()
    assert SaveFile(data_dir / "save.toml").load()["settings"]["rules"] == OSC


async def test_unknown_saved_rules_fall_back_to_classic_and_stay_in_the_file(data_dir):
    write(data_dir, '[settings]\nrules = "bogus"\nsuits = 2\n')
    app = make(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "Rules: classic" in screen_text(app.screen)
        await pilot.press("escape", "n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.game.rules.name == "classic"
        assert app.table.suits == 2
    data = SaveFile(data_dir / "save.toml").load()
    assert data["settings"]["rules"] == "bogus"
