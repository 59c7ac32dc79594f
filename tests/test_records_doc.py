"""docs/records.md against the code: its examples parse, replay and write back byte for byte;
its tables name exactly the headers and results the code knows."""

from __future__ import annotations

import re
from pathlib import Path

from spider_tui import records

DOC = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def examples() -> list[str]:
    return re.findall(r"```record\n(.*?)```", doc(), re.S)


def test_the_examples_parse_replay_and_write_back_byte_for_byte():
    found = examples()
    assert found
    for text in found:
        record, game = records.read_checked(text)
        assert records.write(record) == text
        assert game.moves == record.moves


def test_the_header_table_is_the_codes_order():
    keys = re.findall(r"^\s*\| `([a-z]+)`\s*\|", doc(), re.M)
    assert tuple(keys) == records.HEADERS


def test_the_results_are_the_codes():
    line = next(row for row in doc().splitlines() if row.strip().startswith("| `result`"))
    assert tuple(re.findall(r"`([a-z ]+)`", line)[1:]) == records.RESULTS


def test_the_limits_are_the_codes():
    assert "1 MB" in doc() and records.MAX_BYTES == 1 << 20
    assert "20 000 actions" in doc() and records.MAX_ACTIONS == 20_000
