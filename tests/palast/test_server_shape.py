"""Issue 28's shape of the Palast server, kept: no class of ``spider_tui/palast/server`` over 450
lines (new functionality lives in its own module), and no module reaches into another object's
private members (``x._name`` only on ``self`` or ``cls``)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "spider_tui" / "palast" / "server"
MAX_CLASS_LINES = 450


def _trees():
    for path in sorted(SERVER.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_class_of_the_server_is_over_450_lines():
    sizes = {f"{path.name}:{n.name}": n.end_lineno - n.lineno + 1 for path, tree in _trees()
             for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert sizes and max(sizes.values()) <= MAX_CLASS_LINES, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]


def test_no_private_member_of_another_object_is_used():
    found = [f"{path.name}:{n.lineno} {ast.unparse(n)}" for path, tree in _trees() for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
             and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    assert not found, found
