"""The app of one browser tab (``python -m spider_tui.web_tab``): the same game as the terminal,
and the unfinished round is kept when the tab or the server goes away (Textual's ExitApp)."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

import pytest
from textual import messages

import spider_tui.ui.app as ui_app
import spider_tui.ui.screens.game_screen as game_screen
from spider_tui.store import SaveFile
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.screens.start_screen import StartScreen
from spider_tui.ui_launch import Launch
from spider_tui.web import tab_command
from spider_tui.web_tab import TabApp, tab_args


def css_files(cls) -> list[Path]:
    paths = cls.CSS_PATH if isinstance(cls.CSS_PATH, list) else [cls.CSS_PATH]
    return [(Path(ui_app.__file__).parent / p).resolve() for p in paths]


def test_the_tab_app_has_the_same_look_as_the_terminal_app():
    assert css_files(TabApp) == css_files(SpiderApp)
    assert all(p.is_file() for p in css_files(TabApp))


async def test_a_closing_tab_keeps_the_unfinished_round(tmp_path, monkeypatch):
    monkeypatch.setattr(game_screen, "SAVE_DELAY", 10_000)  # only the exit may write the round here
    save = tmp_path / "save.toml"
    app = TabApp(SaveFile(save), Launch(deal=1, suits=2))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2", "4")  # deal 1, 2 suits: the 3 of column 2 onto the 4 of column 4
        assert app.table.moves == 1
        assert not save.exists() or "rounds" not in tomllib.loads(save.read_text())
        app.post_message(messages.ExitApp())  # what the web driver sends when the tab closes
        await pilot.pause()
    rounds = tomllib.loads(save.read_text())["rounds"]
    assert [(r["deal"], r["suits"], r["moves"]) for r in rounds.values()] == [(1, 2, 1)]


async def test_the_tab_opens_on_the_start_screen(tmp_path):
    app = TabApp(SaveFile(tmp_path / "save.toml"), Launch(ascii=False))
    async with app.run_test(size=(100, 30)):
        assert isinstance(app.screen, StartScreen)


def test_the_tab_needs_its_data_dir(capsys):
    with pytest.raises(SystemExit) as e:
        tab_args([])
    assert e.value.code == 2
    assert "--data-dir" in capsys.readouterr().err


def test_the_tab_takes_what_spider_web_gives_it(tmp_path):
    server_side = shlex.split(tab_command(tmp_path / "d d", python="py", four_color=True))
    assert server_side[:4] == ["exec", "py", "-m", "spider_tui.web_tab"]
    path, launch = tab_args(server_side[4:])
    assert path == tmp_path / "d d" / "save.toml"
    assert launch == Launch(ascii=False, four_color=True)
    path, launch = tab_args(shlex.split(tab_command(tmp_path, python="py"))[4:])
    assert launch == Launch(ascii=False, four_color=False)
