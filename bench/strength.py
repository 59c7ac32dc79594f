"""Play strength (SPEC §14): the fair bot, the hint-bot and the solver on deals 1–100 and 2001–2100.

    python bench/strength.py                       # deals 1-100 and 2001-2100 at 1, 2 and 4 suits
    python bench/strength.py --ranges 1-10         # a quick look
    python bench/strength.py --suits 4 --ranges 101-150 --seconds 5 --out runs.json
    python bench/strength.py --combine a.json b.json   # one table from runs split over processes

One process, one thread, one run: for every deal it plays the fair bot (``fairbot.play_round``:
it sees only ``Game.view()`` and never undoes), the hint-bot (plays ``Game.hint()`` until it has
nothing) and asks the solver (full knowledge, stopped after ``--seconds`` of CPU time).  A
solution counts only when it replays to a win through ``Game.play``.  Times are CPU time of
this process (a shared machine's other programs don't count).  Prints a Markdown table (the
README quotes it) and the budgets of SPEC §14, checked on each range; exit status 1 when a
budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from spider_tui.engine import Game  # noqa: E402
from spider_tui.engine.fairbot import LEVELS, play_hints, play_round  # noqa: E402
from spider_tui.engine.solve import WINNABLE, solve  # noqa: E402

# SPEC §14 budgets, by suit count.
SOLVER_SHARE = {1: 1.00, 2: 0.99, 4: 0.95}
SOLVER_MEAN = {1: 2.0, 2: 2.0}
FAIR_SHARE = {1: 0.90, 2: 0.60, 4: 0.20}
DEFAULT_LEVEL = 3


def run_deal(number: int, suits: int, seconds: float, plan_nodes: int) -> dict:
    c0 = time.process_time()
    fair = play_round(Game.new(number, suits=suits), plan_nodes)
    c1 = time.process_time()
    hint = play_hints(Game.new(number, suits=suits))
    c2 = time.process_time()
    # The solver's clock is this process's CPU time: on a shared machine, wall time would
    # count other programs' turns.  (Its wall time is reported too.)
    t2 = time.monotonic()
    deadline = c2 + seconds
    found = solve(Game.new(number, suits=suits), stop=lambda: time.process_time() >= deadline)
    t3 = time.monotonic()
    c3 = time.process_time()
    solved = False
    if found.result == WINNABLE:
        g = Game.new(number, suits=suits)
        for m in found.moves:
            g.play(m)
        solved = g.won
    return {
        "deal": number, "suits": suits, "fair": fair, "fair_seconds": round(c1 - c0, 3),
        "hint": hint, "hint_seconds": round(c2 - c1, 3),
        "solver": found.result, "solved": solved, "solver_seconds": round(c3 - c2, 3), "solver_wall_seconds": round(t3 - t2, 3),
        "nodes": found.nodes, "solution_moves": len(found.moves or []),
    }


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %"


def summary(deals: str, suits: int, rows: list[dict], seconds: float) -> tuple[str, list[str]]:
    n = len(rows)
    fair = sum(r["fair"] for r in rows)
    hint = sum(r["hint"] for r in rows)
    solved = [r for r in rows if r["solved"]]
    times = [r["solver_seconds"] for r in rows]
    solved_times = [r["solver_seconds"] for r in solved]
    fair_time = statistics.mean(r["fair_seconds"] for r in rows)
    nodes = sum(r["nodes"] for r in rows) / max(sum(times), 1e-9)
    line = (
        f"| {deals} | {suits} | {pct(len(solved), n)} ({len(solved)}/{n}) | {statistics.mean(times):.2f} s "
        f"| {max(solved_times) if solved_times else 0:.2f} s | {nodes / 1000:.0f}k "
        f"| {pct(fair, n)} ({fair}/{n}) | {fair_time:.2f} s | {pct(hint, n)} ({hint}/{n}) |"
    )
    missed = []
    if len(solved) / n < SOLVER_SHARE[suits]:
        missed.append(f"deals {deals}, {suits} suits: solver solved {pct(len(solved), n)}, "
                      f"budget ≥ {SOLVER_SHARE[suits]:.0%} within {seconds:g} s")
    if suits in SOLVER_MEAN and statistics.mean(times) > SOLVER_MEAN[suits]:
        missed.append(f"deals {deals}, {suits} suits: solver mean {statistics.mean(times):.2f} s, budget ≤ {SOLVER_MEAN[suits]:g} s")
    if fair / n < FAIR_SHARE[suits]:
        missed.append(f"deals {deals}, {suits} suits: fair bot won {pct(fair, n)}, budget ≥ {FAIR_SHARE[suits]:.0%}")
    return line, missed


def parse_ranges(text: str) -> list[range]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.append(range(int(a), int(b or a) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ranges", default="1-100,2001-2100", help="deal ranges, comma separated (default 1-100,2001-2100)")
    p.add_argument("--suits", default="1,2,4", help="suit counts, comma separated (default 1,2,4)")
    p.add_argument("--seconds", type=float, default=10.0, help="solver CPU seconds a deal (default 10)")
    p.add_argument("--level", type=int, default=DEFAULT_LEVEL, choices=range(1, len(LEVELS) + 1),
                   help=f"fair bot level: plan size {LEVELS} positions (default {DEFAULT_LEVEL})")
    p.add_argument("--out", metavar="FILE", help="also write every deal's result as JSON")
    p.add_argument("--combine", nargs="+", metavar="FILE", help="print the table from --out files instead of playing")
    args = p.parse_args(argv)
    if args.combine:
        return combine(args.combine, args.seconds)
    suit_counts = [int(s) for s in args.suits.split(",")]
    plan_nodes = LEVELS[args.level - 1]
    started = time.monotonic()
    c0 = time.process_time()
    results: dict[str, dict[int, list[dict]]] = {}
    for deals in parse_ranges(args.ranges):
        label = f"{deals.start}–{deals.stop - 1}"
        for suits in suit_counts:
            rows = results.setdefault(label, {}).setdefault(suits, [])
            for number in deals:
                r = run_deal(number, suits, args.seconds, plan_nodes)
                rows.append(r)
                print(
                    f"{suits} suits deal {number}: fair {'won' if r['fair'] else 'lost'} ({r['fair_seconds']:.2f} s), "
                    f"hint {'won' if r['hint'] else 'lost'}, solver {r['solver']} {r['solver_seconds']:.2f} s "
                    f"{r['nodes']} positions", file=sys.stderr, flush=True,
                )
    total = time.monotonic() - started
    print(f"Deals {args.ranges} at {args.suits} suits; solver stopped after {args.seconds:g} s of CPU time a deal; "
          f"fair bot level {args.level} ({plan_nodes} positions a plan). One process, one thread, one run: "
          f"{(time.process_time() - c0) / 60:.1f} min CPU, {total / 60:.1f} min wall "
          f"(Python {platform.python_version()}, {platform.machine()}, load average at the end "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores).")
    print()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({label: {str(k): v for k, v in by.items()} for label, by in results.items()}, f, indent=1)
    return table(results, args.seconds)


def table(results: dict[str, dict[int, list[dict]]], seconds: float) -> int:
    print("| deals | suits | solver solved | solver mean CPU | solver max (solved) | positions a CPU s "
          "| fair bot won | fair bot CPU a round | hint-bot won |")
    print("|---|---|---|---|---|---|---|---|---|")
    missed: list[str] = []
    for label, by in results.items():
        for suits in sorted(by):
            line, miss = summary(label, suits, by[suits], seconds)
            print(line)
            missed += miss
    print()
    if missed:
        print("Budgets missed (SPEC §14):")
        for m in missed:
            print(f"- {m}")
    else:
        print("All SPEC §14 budgets met.")
    return 1 if missed else 0


def combine(files: list[str], seconds: float) -> int:
    """One table from several ``--out`` files (a run split over processes or suit counts)."""
    results: dict[str, dict[int, list[dict]]] = {}
    for name in files:
        with open(name, encoding="utf-8") as f:
            for label, by in json.load(f).items():
                for suits, rows in by.items():
                    results.setdefault(label, {}).setdefault(int(suits), []).extend(rows)
    for label, by in results.items():
        for suits, rows in by.items():
            rows.sort(key=lambda r: r["deal"])
            deals = [r["deal"] for r in rows]
            if len(set(deals)) != len(deals):
                print(f"deals {label}, {suits} suits: some deals twice!")
    return table(results, seconds)


if __name__ == "__main__":
    raise SystemExit(main())
