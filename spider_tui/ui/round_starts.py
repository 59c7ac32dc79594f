"""Which round goes on the table (SPEC §5–§8, §15): the app's answers to the requests for a round.

A deal by number, a new random deal (a proved-winnable one with "Winnable deals only"), the
daily deal, Continue, Retry, a practice deal from the Palast, and the lessons: each asks the
session (solo or lessons) for its round and puts the round's screen up, in place of a round on
show or over the screen it was asked from.  ``SpiderApp`` (``ui/app.py``) is built on it.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import App

from spider_tui.i18n import _
from spider_tui.safe_text import visible
from spider_tui.session import SoloSession
from spider_tui.store.book import SaveBook, playable_rules
from spider_tui.table import Table
from spider_tui.ui import messages
from spider_tui.ui.render import Look
from spider_tui.ui.screens.game_screen import GameScreen, round_screen
from spider_tui.ui_launch import Launch

if TYPE_CHECKING:
    import random

    from spider_tui.lessons.session import LessonSession


class RoundStarts(App):
    """The round-starting half of ``SpiderApp`` (see the module doc)."""

    if TYPE_CHECKING:  # SpiderApp sets these
        session: SoloSession
        book: SaveBook
        launch: Launch
        look: Look
        rng: random.Random
        _lessons: LessonSession | None
        _winnable: Any

        @property
        def settings(self) -> Any: ...

        def leave_round(self) -> None: ...

    def show_round(self, table: Table | None) -> None:
        """Put the session's round ``table`` on screen."""
        if table is None:
            return
        self.show_screen(round_screen(self.session, self.look))

    def show_screen(self, screen: GameScreen) -> None:
        """A round's screen: in place of the one on show when that is a round's, else over it."""
        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @property
    def rules(self) -> str:
        """The rules a new deal is played under: the command line's, else the setting."""
        return playable_rules(self.launch.rules or self.settings.rules)

    def begin_deal(self, number: int | str, suits: int) -> None:  # a number or a deal code
        self.show_round(self.session.deal(number, suits, self.rules))

    @on(messages.NewRound)
    def new_round(self, message: messages.NewRound) -> None:
        if self.lesson_on_table():
            self.open_lesson(messages.OpenLesson())  # New in a lesson: the next lesson
            return
        self.start_new(message.suits)

    @property
    def lessons(self) -> LessonSession:
        """The lessons' session (SPEC §15), made when first needed (not on the way to the first frame)."""
        if self._lessons is None:
            from spider_tui.lessons.session import LessonSession

            self._lessons = LessonSession(lambda: self.book.data, self.book.write)
        return self._lessons

    def lesson_on_table(self) -> bool:
        return self._lessons is not None and isinstance(self.screen, GameScreen) and self.screen.session is self._lessons

    @on(messages.OpenLesson)
    def open_lesson(self, message: messages.OpenLesson) -> None:
        """A lesson on the table (SPEC §15); after the last one, back to the list."""
        from spider_tui.lessons import lesson_by_number

        lesson = self.lessons.next_lesson() if message.number is None else lesson_by_number(message.number)
        if lesson is None:
            if self.lesson_on_table():
                self.leave_round()
            return
        self.lessons.begin(lesson)
        self.show_screen(round_screen(self.lessons, self.look))

    def start_new(self, suits: int | None = None) -> None:
        """A new random deal: at ``suits``, else the command line's --suits, else the setting.
        With "Winnable deals only" a number the solver proved winnable (ui/winnable_deals.py)."""
        suits = suits or self.launch.suits or self.settings.suits
        if self.settings.winnable_only and self.winnable.new_deal(suits, self.rules, self.begin_deal):
            return
        self.show_round(self.session.new_round(suits, self.rules))

    @property
    def winnable(self):
        """Proved-winnable deal numbers and their background prover (made when first needed)."""
        if self._winnable is None:
            from spider_tui.ui.winnable_deals import WinnableDeals

            self._winnable = WinnableDeals(self, self.book.save.path.parent, self.rng)
        return self._winnable

    def start_daily(self, d: date, suits: int | None = None) -> None:
        self.show_round(self.session.daily(d, suits or self.settings.suits))

    @on(messages.DailyRound)
    def daily_round(self, message: messages.DailyRound) -> None:
        self.start_daily(message.day)

    @on(messages.ContinueRound)
    def continue_round(self) -> None:
        found = self.session.resume()
        if isinstance(found, str):
            self.notify(visible(found), severity="error", markup=False)
        else:
            self.show_round(found)

    @on(messages.PracticeDeal)
    def practice_deal(self, message: messages.PracticeDeal) -> None:
        """A deal played alone as practice (the Palast's "play it alone")."""
        self.show_round(self.session.begin(Table.new(message.deal, suits=message.suits, rules=message.rules,
                                                     practice=True)))

    @on(messages.RetryRound)
    def retry(self) -> None:
        if self.lesson_on_table():
            self.open_lesson(messages.OpenLesson(self.lessons.lesson.number if self.lessons.lesson else 1))
            return
        self.show_round(self.session.retry(self.rules))
        if getattr(self.session, "last_try", None) is not None and self.session.table is not None:
            self.session.table.say(_("t: race your last try as a ghost."))
