"""Positions per CPU second of the solver against an older revision's, on the same deals, in one
process (SPEC §14 / issue 24: "nodes per CPU second before and after").

    python bench/solver_compare.py                          # 24a9cbb (the greedy solver) vs now
    python bench/solver_compare.py --rev main --suits 4 --deals 2,7,9,2074 --seconds 3
    python bench/solver_compare.py --profile                # also cProfile (CPU-time timer)

The old ``spider_tui/engine/solve.py`` is read with ``git show REV:…`` and loaded beside the
current one (it uses the current ``lean.py``).  "Positions" are ``Solution.nodes``: new
positions made.  Times are this process's CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import os
import pstats
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from spider_tui.engine import Game  # noqa: E402
from spider_tui.engine import solve as current  # noqa: E402


def load_old(rev: str):
    text = subprocess.run(["git", "show", f"{rev}:spider_tui/engine/solve.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = os.path.join(tempfile.mkdtemp(), "oldsolve.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("spider_tui.engine.oldsolve", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def run(name: str, mod, suits: int, deals: list[int], seconds: float, profile: bool) -> None:
    nodes = 0
    cpu = 0.0
    prof = cProfile.Profile(time.process_time) if profile else None
    for d in deals:
        c0 = time.process_time()
        deadline = c0 + seconds
        if prof:
            prof.enable()
        found = mod.solve(Game.new(d, suits=suits), stop=lambda: time.process_time() >= deadline)
        if prof:
            prof.disable()
        c = time.process_time() - c0
        nodes += found.nodes
        cpu += c
        print(f"{name}: {suits} suits deal {d}: {found.result}, {c:.2f} s CPU, {found.nodes} positions")
    print(f"{name}: {nodes / cpu:,.0f} positions per CPU second")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(10)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rev", default="24a9cbb", help="the older revision (default 24a9cbb, before the beam search)")
    p.add_argument("--suits", type=int, default=4)
    p.add_argument("--deals", default="2,7,9,2074")
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a deal (default 3)")
    p.add_argument("--profile", action="store_true", help="cProfile each side (slow: the profiler's own cost)")
    a = p.parse_args()
    deals = [int(x) for x in a.deals.split(",")]
    run(f"old ({a.rev})", load_old(a.rev), a.suits, deals, a.seconds, a.profile)
    run("new", current, a.suits, deals, a.seconds, a.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
