"""docs/security.md names the test or bench that checks each promise: every one it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def _defined_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def test_every_test_the_security_doc_names_exists():
    cited = set(re.findall(r"\b(test_\w+)`", DOC)) | set(re.findall(r"::(test_\w+)", DOC))
    cited = {c for c in cited if not c.endswith("_py")}
    assert len(cited) > 30  # the doc cites its checks
    missing = sorted(cited - _defined_tests())
    assert missing == []


def test_every_file_and_attack_the_security_doc_names_exists():
    files = set(re.findall(r"`((?:tests/[\w/]+/)?test_\w+\.py)", DOC))
    assert files
    for f in files:
        found = list((ROOT / "tests").rglob(Path(f).name))
        assert found, f
    attacks_src = (ROOT / "bench" / "attacks.py").read_text(encoding="utf-8")
    known = set(re.search(r"ATTACKS = \{(.*?)\}", attacks_src, re.S).group(1).replace('"', " ").replace(":", " ").split())
    for group in re.findall(r"`bench/attacks\.py ([a-z ]+)`", DOC):
        for name in group.split():
            assert name in known, name
