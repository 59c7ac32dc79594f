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


def done_lessons(data: dict[str, Any]) -> set[str]:
    """The keys of the lessons finished (anything unreadable reads as none)."""
    table = data.get("lessons")
    done = table.get("done") if isinstance(table, dict) else None
    if not isinstance(done, list):
        return set()
    return {k for k in done if isinstance(k, str)}


def mark_lesson_done(data: dict[str, Any], key: str) -> None:
    """Remember lesson ``key`` as finished (once; other keys in the table are kept)."""
    table = data.get("lessons")
    if not isinstance(table, dict):
        table = data["lessons"] = {}
    done = table.get("done")
    if not isinstance(done, list):
        done = table["done"] = []
    if key not in done:
        done.append(key)
