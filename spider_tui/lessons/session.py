"""A lesson on the table (SPEC §15): the lesson's game on a :class:`Table`, played through the
same :class:`Session` face as any round.  Undo and retry are free, nothing is recorded in the
stats; a finished lesson is remembered in the save file.

>>> from spider_tui.lessons import load_lessons
>>> data = {}
>>> s = LessonSession(lambda: data, lambda change, after=None: change(data))
>>> t = s.begin(load_lessons()[1])
>>> t.status == load_lessons()[1].task, s.title
(True, 'Lesson 2: A run completes and leaves')
>>> for m in load_lessons()[1].solution: _ = t.play(m)
>>> s.changed(), t.status.startswith("Done!"), data["lessons"]["done"]
('', True, ['runs'])
"""

from __future__ import annotations

from typing import Any, Callable

from spider_tui.commands import keys_text
from spider_tui.i18n import _
from spider_tui.lessons.runner import Lesson, LessonRun, load_lessons
from spider_tui.session import Offer, Session
from spider_tui.store.lessons import mark_lesson_done
from spider_tui.table import Table

Data = dict[str, Any]


class LessonTable(Table):
    """A Table whose status line is the lesson's: the task, why a move was refused, the
    explanation once the goal is reached, or that it can't be reached from here any more."""

    def __init__(self, run: LessonRun) -> None:
        super().__init__(run.game, practice=True, start=run.lesson.position)
        self.run = run
        self.status = run.status

    @property
    def over(self) -> bool:
        return self.game.over or self.run.state == "done"

    def _after_action(self) -> None:
        super()._after_action()
        self.run.check()
        self.status = self.run.status
        if self.run.state == "done":
            self.status += " " + _("({key}: next lesson)").format(key=keys_text("new"))

    def undo(self) -> bool:
        undone = super().undo()
        if undone:
            self.run.check()
            self.status = self.run.status
            self._changed()
        return undone

    def _select(self, col: int, count: int, chosen: bool = True) -> None:
        super()._select(col, count, chosen)
        self.status = self.run.status  # the task stays in view while a group is held


class LessonSession(Session):
    """The lessons, one at a time.  ``data``/``write`` as for :class:`SoloSession`."""

    offers = frozenset({Offer.RETRY, Offer.NEW})  # New: the next lesson
    next_round = True

    def __init__(self, data: Callable[[], Data], write: Callable[..., None]) -> None:
        self.data = data
        self.write = write
        self.table: LessonTable | None = None
        self.lesson: Lesson | None = None
        self._recorded = False

    def begin(self, lesson: Lesson) -> LessonTable:
        self.lesson = lesson
        self.table = LessonTable(LessonRun(lesson))
        self._recorded = False
        return self.table

    @property
    def title(self) -> str:
        if self.lesson is None:
            return ""
        return _("Lesson {number}: {title}").format(number=self.lesson.number, title=self.lesson.shown_title)

    @property
    def recorded(self) -> bool:
        return self._recorded

    def next_lesson(self) -> Lesson | None:
        """The lesson after this one (None after the last)."""
        lessons = load_lessons()
        if self.lesson is None:
            return lessons[0]
        later = [x for x in lessons if x.number > self.lesson.number]
        return later[0] if later else None

    def retry(self) -> LessonTable | None:
        return None if self.lesson is None else self.begin(self.lesson)

    def end(self, won: bool) -> None:
        """A lesson is never recorded in the stats; a reached goal is remembered."""
        lesson = self.lesson
        if lesson is None or self._recorded or not won:
            return
        self._recorded = True
        self.write(lambda d: mark_lesson_done(d, lesson.key))

    def keep(self) -> None:
        """Lessons are not kept for Continue: a retry starts them again at once."""

    def changed(self) -> str:
        t = self.table
        if t is not None and t.run.state == "done" and not self._recorded:
            self.end(won=True)
        return ""

    def needs_asking(self) -> bool:
        return False  # retry and the next lesson are free

    def leave(self) -> None:
        pass
