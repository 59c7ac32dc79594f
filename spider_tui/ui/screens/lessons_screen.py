"""The lessons list (SPEC §15): every lesson with its number and title, finished ones marked;
the highlighted lesson's task below.  Enter plays it (posts ``OpenLesson``); Esc goes back."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.commands import LESSONS_CLOSE
from spider_tui.i18n import N_, _
from spider_tui.lessons import Lesson, load_lessons
from spider_tui.store.book import SaveBook
from spider_tui.store.lessons import done_lessons
from spider_tui.ui import messages
from spider_tui.ui.keys import bindings
from spider_tui.ui.render import Look
from spider_tui.ui.widgets.footer import Footer

FOOT = N_("Undo and retry are free in a lesson, and lessons never count in your stats.")


def lesson_label(lesson: Lesson, done: bool, check: str) -> str:
    """One line of the list: ``✓  1  Moving cards and groups``.

    >>> lesson_label(load_lessons()[0], True, "*")
    '*  1  Moving cards and groups'
    """
    return f"{check if done else ' '} {lesson.number:>2}  {lesson.shown_title}"


class LessonsScreen(Screen):
    """Shows the lessons and which are done (read from the save book on every return)."""

    BINDINGS = bindings([LESSONS_CLOSE])
    DEFAULT_CSS = """
    LessonsScreen { align: center middle; }
    LessonsScreen > Vertical { width: 72; max-width: 100%; height: auto; max-height: 100%;
                               border: round $accent; background: $surface; padding: 0 1; }
    LessonsScreen OptionList { height: auto; max-height: 12; }
    LessonsScreen #lesson-task { height: auto; min-height: 2; color: $text-muted; }
    """

    def __init__(self, book: SaveBook, look: Look) -> None:
        super().__init__()
        self.book = book
        self.look = look
        self.lessons = load_lessons()

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(_("Lessons {sep} Enter plays one, {keys} goes back").format(
                sep=self.look.marks['sep'], keys=_(LESSONS_CLOSE.keys_text)), markup=False, id="lessons-title")
            yield OptionList(*self.options(), id="lessons-list")
            yield Static("", id="lesson-task", markup=False)
            yield Static(_(FOOT), markup=False, id="lessons-foot")
        yield Footer()

    def options(self) -> list[Option]:
        done = done_lessons(self.book.data)
        check = self.look.marks["check"]
        return [Option(Text(self.look.text(lesson_label(x, x.key in done, check))), id=str(x.number))
                for x in self.lessons]

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.show_task(0)

    def on_screen_resume(self) -> None:
        """Back from a lesson: the marks may have changed; the next lesson not yet done is highlighted."""
        ol = self.query_one(OptionList)
        index = ol.highlighted or 0
        ol.clear_options()
        ol.add_options(self.options())
        ol.highlighted = index
        self.show_task(index)

    def show_task(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.lessons):
            return
        lesson = self.lessons[index]
        self.query_one("#lesson-task", Static).update(self.look.text(_("Task: {task}").format(task=lesson.shown_task)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_task(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.post_message(messages.OpenLesson(int(event.option.id or "1")))

    def action_close(self) -> None:
        self.dismiss()
