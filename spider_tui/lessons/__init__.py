"""Lessons (SPEC §15): short positions that each teach one thing, with a goal the engine checks.

A lesson is a file in this folder, ``NN-name.txt``: a position in the notation of SPEC §3, whose
``#:`` comment lines (the notation ignores every ``#`` line) say what the lesson is::

    #: title: Moving cards and groups
    #: task: Turn up every face-down card.
    #: goal: revealed
    #: success: A card goes onto any card one higher ...
    #: solution: 3>1 2>1 ...
    #: wrong: 4>1

``goal`` is one of (see :class:`Goal`): ``won`` (table and stock empty), ``runs N`` (N runs
completed), ``revealed`` (no face-down card left on the table), ``score N`` (the round won with
at least N points).  ``success`` (one or two lines) is shown when the goal is reached.
``solution`` is a line of moves that reaches the goal; ``wrong`` a line after which it can't be
reached any more (the tests play both).

Everything here is plain Python on the engine: :mod:`.runner` checks goals and whether a goal can
still be reached; the UI only shows what it says.
"""

from __future__ import annotations

from spider_tui.lessons.runner import Goal, Lesson, LessonRun, load_lessons, lesson_by_number

__all__ = ["Goal", "Lesson", "LessonRun", "load_lessons", "lesson_by_number"]
