"""Lessons on screen (SPEC §15): the list from the start screen, a lesson played with keys to its
goal, the explanation shown, the lesson marked in the list and remembered, never in the stats."""

from __future__ import annotations

from spider_tui.lessons import load_lessons
from spider_tui.lessons.runner import CANT_FINISH
from spider_tui.store import SaveFile
from spider_tui.store.lessons import done_lessons
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.lessons_screen import LessonsScreen
from textual.widgets import OptionList, Static


def keys_of(move: str) -> list[str]:
    src, dst = move.split(":")[0].split(">")
    return [str(int(src) % 10), str(int(dst) % 10)]


async def test_play_lesson_one_with_keys(make_app, data_dir):
    app = make_app()
    lesson = load_lessons()[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LessonsScreen)
        ol = app.screen.query_one(OptionList)
        assert ol.option_count >= 7
        assert "Moving cards" in str(ol.get_option_at_index(0).prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        status = app.screen.query_one("#status", Static)
        assert lesson.task.split(".")[0] in str(status.content)
        assert str(app.screen.query_one("#new", Static).content) == "Next"  # New in a lesson: the next one
        footer_n = [a.binding.description for a in app.screen.active_bindings.values() if a.binding.key == "n"]
        assert footer_n == ["Next"]  # the footer says it too
        for move in lesson.solution:
            for key in keys_of(move):
                await pilot.press(key)
        await pilot.pause()
        assert str(status.content).startswith("Done!")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LessonsScreen)
        assert str(app.screen.query_one(OptionList).get_option_at_index(0).prompt).lstrip().startswith("✓")
        app.book.flush(timeout=5)
    data = SaveFile(data_dir / "save.toml").load()
    assert done_lessons(data) == {lesson.key}
    assert not data.get("stats"), "a lesson is never recorded in the stats"


async def test_wrong_line_says_so_and_r_retries(make_app):
    app = make_app()
    lesson = load_lessons()[2]  # the empty column: Jh into it leaves no way back
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", "down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        for move in lesson.wrong:
            for key in keys_of(move):
                await pilot.press(key)
        await pilot.pause()
        status = app.screen.query_one("#status", Static)
        assert str(status.content) == CANT_FINISH
        await pilot.press("r")  # free: no question
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert str(app.screen.query_one("#status", Static).content) == lesson.task
        assert app.screen.table.game.to_text() == lesson.game().to_text()
        await pilot.press("n")  # the next lesson
        await pilot.pause()
        assert app.screen.session.title.startswith("Lesson 4")
