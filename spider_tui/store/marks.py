"""Things the save file remembers once, as a list in a table of their own: ``[lessons] done =
["moving", ...]`` (finished lessons), ``[path] suggested = [1]`` (levels whose next one was
suggested).  Anything unreadable reads as nothing; other keys of the table are kept.

>>> data = {"path": {"other": 1}}
>>> mark(data, "path", "suggested", 1); mark(data, "path", "suggested", 1); data
{'path': {'other': 1, 'suggested': [1]}}
>>> marked({"path": {"suggested": "no list"}}, "path", "suggested", int)
[]
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def marked(data: dict[str, Any], table: str, key: str, kind: type[T]) -> list[T]:
    """The items of ``kind`` kept under ``[table] key`` (none when the file holds no list there)."""
    t = data.get(table)
    items = t.get(key) if isinstance(t, dict) else None
    return [k for k in items if isinstance(k, kind)] if isinstance(items, list) else []


def mark(data: dict[str, Any], table: str, key: str, item: Any) -> None:
    """Remember ``item`` under ``[table] key``, once."""
    t = data.get(table)
    if not isinstance(t, dict):
        t = data[table] = {}
    items = t.get(key)
    if not isinstance(items, list):
        items = t[key] = []
    if item not in items:
        items.append(item)
