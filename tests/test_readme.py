"""Issue 33 item 6: the README's quick start works as written on Debian's and Ubuntu's Python
(where a bare ``pip install .`` is refused as an externally-managed environment): each command
makes its own virtual environment and runs everything from it, and CI (``.ci/run``) runs the
README's test command."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> dict[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    found = dict(re.findall(r"^(Play|Test):\n\n    (.+)$", part, re.M))
    assert set(found) == {"Play", "Test"}, found
    return found


def test_each_quick_start_command_makes_a_venv_and_runs_only_from_it():
    for name, command in _quick_start().items():
        steps = [shlex.split(step) for step in command.split("&&")]
        assert steps[0] == ["python3", "-m", "venv", ".venv"], name
        for step in steps[1:]:
            assert step[0].startswith(".venv/bin/"), (name, step)  # never the system's pip or python
        tools = [step[0] for step in steps]
        assert ".venv/bin/pip" in tools, name
    assert _quick_start()["Play"].endswith(".venv/bin/spider")


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test = _quick_start()["Test"]
    install, run = test.rsplit(" && ", 1)
    assert install.replace("pip install", "pip install -q") in ci
    assert re.search(rf"^{re.escape(run)}$", ci, re.M)


def test_a_layer_run_says_what_it_left_out_and_every_skip_says_why():
    from tests.conftest import left_out_line

    said = left_out_line("fast", 12)
    assert said is not None and "12 tests" in said and "pty, pilot, socket, postgres, search" in said
    import tomllib

    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    assert "-rfEs" in opts.split()  # the short summary lists each failure, error and skip (with its reason)
