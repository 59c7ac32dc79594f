"""SPEC §16's budgets for records: listing 500 records (the Records list's data) <= 200 ms, and
replaying one record step by step.

    python bench/records.py            # 500 records of 150 actions each, median of 7 listings

It writes 500 records into a temporary data dir (as rounds end: ``RecordStore.add``), then times
``RecordStore.entries()`` (what the Records list shows: date, deal, suits, rules, result, moves,
time) and the Records list's lines, and a whole record's checked read and its replay steps.
Exit status 1 when the listing misses its budget.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spider_tui import records  # noqa: E402
from spider_tui.engine import Game  # noqa: E402
from spider_tui.replay import Replay  # noqa: E402
from spider_tui.store.records import RecordStore  # noqa: E402

BUDGET_MS = 200.0


def a_record(i: int, rng: random.Random) -> records.Record:
    g = Game.new(1 + i, suits=(1, 2, 4)[i % 3])
    acts, ms = [], 0
    for _ in range(150):
        legal = g.legal_moves()
        if not legal:
            break
        ms += rng.randint(200, 6000)
        acts.append((ms, str(g.play(rng.choice(legal)))))
    return records.Record(deal=1 + i, suits=g.suits, rules="classic",
                          date=f"2026-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}T12:00:00Z", player="you",
                          result="left" if not g.stuck else "stuck", moves=g.moves, seconds=ms / 1000,
                          actions=tuple(acts))


def main() -> int:
    from spider_tui.ui.screens.records_screen import entry_line

    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as d:
        store = RecordStore(d)
        made = [a_record(i, rng) for i in range(500)]
        for r in made:
            store.add(r)
        assert len(store.paths()) == 500
        size = sum(p.stat().st_size for p in store.paths())
        times = []
        for _ in range(7):
            t = time.perf_counter()
            lines = [entry_line(e) for e in store.entries()]
            times.append((time.perf_counter() - t) * 1000)
        assert len(lines) == 500
        listing = statistics.median(times)
        text = store.paths()[0].read_text()
        t = time.perf_counter()
        record, _ = records.read_checked(text)
        check_ms = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        rp = Replay(record)
        while rp.forward():
            pass
        steps_ms = (time.perf_counter() - t) * 1000
    ok = listing <= BUDGET_MS
    print("| records (SPEC §16) | measured | budget |")
    print("|---|---|---|")
    print(f"| list 500 records (median of 7) | {listing:.1f} ms | <= {BUDGET_MS:.0f} ms {'ok' if ok else 'MISSED'} |")
    print(f"| read + check one record ({len(record.actions)} actions) | {check_ms:.1f} ms | |")
    print(f"| replay: all {rp.last} steps made and shown on the Table | {steps_ms:.1f} ms | |")
    print(f"| 500 records on disk | {size / 1024:.0f} KB | |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
