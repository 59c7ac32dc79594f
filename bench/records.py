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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from spider_tui import records  # noqa: E402
from spider_tui.engine import Game  # noqa: E402
from spider_tui.replay import Replay  # noqa: E402
from spider_tui.store.records import RecordStore  # noqa: E402

BUDGET_MS = 200.0
STEP_BUDGET = 1024  # bytes: the keyed move's budget in bench/run.py (SPEC §11)


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
        times, cpu = [], []
        for _ in range(7):
            t, c = time.perf_counter(), time.process_time()
            lines = [entry_line(e) for e in store.entries()]
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
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
    steps, move = replay_bytes(made[1])
    ok_steps = max(steps) <= STEP_BUDGET
    ok = listing <= BUDGET_MS
    print("| records (SPEC §16) | measured | budget |")
    print("|---|---|---|")
    print(f"| list 500 records (median of 7; CPU {statistics.median(cpu):.1f} ms) | {listing:.1f} ms "
          f"| <= {BUDGET_MS:.0f} ms {'ok' if ok else 'MISSED'} |")
    print(f"| read + check one record ({len(record.actions)} actions) | {check_ms:.1f} ms | |")
    print(f"| replay: all {rp.last} steps made and shown on the Table | {steps_ms:.1f} ms | |")
    print(f"| 500 records on disk | {size / 1024:.0f} KB | |")
    print(f"| bytes: a replay step (→) at 100×30, truecolor, median / max of {len(steps)} "
          f"| {statistics.median(steps):.0f} / {max(steps)} B "
          f"| <= {STEP_BUDGET} B {'ok' if ok_steps else 'MISSED'} |")
    print(f"| bytes: a keyed move (put) in a round, the same way, for comparison | {move} B | |")
    return 0 if ok and ok_steps else 1


def replay_bytes(record: records.Record, n: int = 12) -> tuple[list[int], int]:
    """Bytes the app writes for each of ``n`` replay steps (`spider replay`, a real pty, 100×30),
    and for one keyed move of a round measured the same way."""
    import os
    import re

    from ptyterm import Term

    exe = str(Path(sys.executable).parent / "spider")
    out = []
    with tempfile.TemporaryDirectory() as d:
        RecordStore(d).add(record)
        env = {"SPIDER_DATA_DIR": d, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        env.update({k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")})
        t = Term([exe, "replay", "last"], 100, 30, env=env)
        t.wait_for(lambda s: "Step 0 of" in s, timeout=60)
        for i in range(1, n + 1):
            t.until_quiet(0.3, timeout=5)
            t.feed()
            n0 = len(t.chunks)
            t.send(b"\x1b[C")
            t.wait_for(lambda s, i=i: re.search(rf"Step {i} of", s) is not None, timeout=30)
            t.until_quiet(0.3, timeout=5)
            out.append(sum(len(c) for _, c in t.chunks[n0:]))
        t.close(b"\x11")
        t = Term([exe, "--deal", "1", "--suits", "1"], 100, 30, env=env)
        t.wait_for(lambda s: "Moves: 0" in s, timeout=60)
        t.send(b"9")
        t.until_quiet(0.3, timeout=5)
        t.send(b"5")
        t.wait_for(lambda s: "Moves: 1" in s, timeout=30)
        t.until_quiet(0.3, timeout=5)
        t.feed()
        n0 = len(t.chunks)
        t.send(b"3")
        t.until_quiet(0.3, timeout=5)
        t.send(b"2")
        t.wait_for(lambda s: "Moves: 2" in s, timeout=30)
        t.until_quiet(0.3, timeout=5)
        move = sum(len(c) for _, c in t.chunks[n0:])
        t.close(b"\x11")
    return out, move


if __name__ == "__main__":
    sys.exit(main())
