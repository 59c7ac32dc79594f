"""The layers of the house (issue 28): imports run downward only, so the shape holds without
anyone watching.

- the engine imports nothing of ours but itself (it stays pure: no UI, no I/O, no network);
- the store imports no UI;
- the Palast server imports no UI and no client;
- the UI imports no Palast server (the embedded Palast is started through
  ``spider_tui.palast.embedded``, a launcher that runs ``spider server`` as a child process).

Every ``import`` and ``from … import`` of every module is read with ``ast``, the ones inside
functions and ``if TYPE_CHECKING:`` blocks too: a layer broken only for the type checker is
still broken.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "spider_tui"

#: (the layer, the packages it may not import, why)
RULES = [
    ("spider_tui.engine", ("spider_tui.",), "the engine imports nothing of ours but itself"),
    ("spider_tui.store", ("spider_tui.ui",), "the store imports no UI"),
    ("spider_tui.palast.server", ("spider_tui.ui", "spider_tui.palast.client"),
     "the Palast server imports no UI and no client"),
    ("spider_tui.ui", ("spider_tui.palast.server",), "the UI imports no Palast server"),
]
#: What a layer may import although a rule above would forbid it: the engine itself.
ALLOWED = {"spider_tui.engine": ("spider_tui.engine",)}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=None)  # the planted copies parse again only the file that changed
def imports_of(source: str, module: str, is_package: bool) -> tuple[tuple[int, str], ...]:
    """Every module ``source`` imports (``(line, dotted name)``), relative imports resolved
    against ``module``; ``from a import b`` gives ``a.b`` too (``b`` may be a module)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            out += [(node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*"]
    return tuple(out)


def broken(root: Path = ROOT) -> list[str]:
    """Every import that breaks a layer rule, as ``module:line imports name (rule)``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path) if root == ROOT else "spider_tui." + ".".join(
            path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for layer, forbidden, why in RULES:
            if module != layer and not module.startswith(layer + "."):
                continue
            allowed = ALLOWED.get(layer, ())
            for lineno, name in imports_of(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
                dotted = name + "."
                if any(dotted.startswith(a + ".") for a in allowed):
                    continue
                if any(dotted.startswith(f if f.endswith(".") else f + ".") for f in forbidden):
                    found.append(f"{module}:{lineno} imports {name} ({why})")
    return found


def test_every_import_runs_down_the_layers():
    assert broken() == []


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """A copy of the package to plant bad imports in."""
    root = tmp_path_factory.mktemp("spider_tui")
    for path in ROOT.rglob("*.py"):
        target = root / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return root


@pytest.mark.parametrize("module, line, bad", [
    ("engine/game.py", "from spider_tui.table import Table", "the engine imports nothing of ours"),
    ("engine/game.py", "import spider_tui.store.savefile", "the engine imports nothing of ours"),
    ("store/savefile.py", "from spider_tui.ui.app import SpiderApp", "the store imports no UI"),
    ("palast/server/lobby.py", "from spider_tui.palast.client.session import PalastSession", "no client"),
    ("palast/server/table.py", "from ...ui import app", "no UI"),
    ("ui/palast/connect.py", "from spider_tui.palast.server import lobby", "the UI imports no Palast server"),
    ("ui/app.py", "if True:\n    from spider_tui.palast.server.server import PalastServer", "the UI imports no"),
])
def test_a_planted_bad_import_is_found(copy, module, line, bad):
    """The check can fail: the copy of the package with one bad import planted breaks it (the
    copy without it is clean: ``test_every_import_runs_down_the_layers``)."""
    planted = copy / module
    before = planted.read_text(encoding="utf-8")
    planted.write_text(before + "\n" + line + "\n", encoding="utf-8")
    try:
        found = broken(copy)
    finally:
        planted.write_text(before, encoding="utf-8")
    assert len(found) >= 1 and all(bad in f for f in found), found


def test_relative_imports_are_resolved():
    assert ("spider_tui.palast.server.db" in
            [n for _, n in imports_of("from .db import Store", "spider_tui.palast.server.lobby", False)])
    assert ("spider_tui.palast.messages" in
            [n for _, n in imports_of("from .. import messages", "spider_tui.palast.server", True)])
