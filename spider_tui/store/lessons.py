"""Finished lessons in the save file (SPEC §15): ``[lessons] done = ["moving", ...]``.

Lessons are never recorded in the stats; only which ones were finished is kept, by the lesson's
stable key (its file name without the number).

>>> data = {}
>>> mark_lesson_done(data, "moving"); mark_lesson_done(data, "moving"); sorted(done_lessons(data))
['moving']
>>> done_lessons({"lessons": {"done": "not a list"}})
set()
"""

from __future__ import annotations

from typing import Any

from .marks import mark, marked


def done_lessons(data: dict[str, Any]) -> set[str]:
    """The keys of the lessons finished (anything unreadable reads as none)."""
    return set(marked(data, "lessons", "done", str))


def mark_lesson_done(data: dict[str, Any], key: str) -> None:
    """Remember lesson ``key`` as finished (once; other keys in the table are kept)."""
    mark(data, "lessons", "done", key)
