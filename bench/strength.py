"""Play strength (SPEC §14): the fair bot, the hint-bot and the solver on deals 1–100.

    python bench/strength.py                   # deals 1-100 at 1, 2 and 4 suits, 10 s a solve
    python bench/strength.py --deals 10        # a quick look
    python bench/strength.py --suits 4 --first 101 --deals 50 --seconds 5 --out runs.json
    python bench/strength.py --combine a.json b.json   # one table from runs split over processes

One process, one thread, one run: for every deal it plays the fair bot (``fairbot.play_round``:
it sees only ``Game.view()`` and never undoes), the hint-bot (plays ``Game.hint()`` until it has
nothing) and asks the solver (full knowledge, stopped after ``--seconds``).  A solution counts
only when it replays to a win through ``Game.play``.  Prints a Markdown table (the README quotes
it) and the budgets of SPEC §14; exit status 1 when a budget is missed.
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
from spider_tui.engine.fairbot import PLAN_NODES, play_hints, play_round  # noqa: E402
from spider_tui.engine.solve import WINNABLE, solve  # noqa: E402

# SPEC §14 budgets, by suit count.
SOLVER_SHARE = {1: 0.99, 2: 0.95, 4: 0.60}
SOLVER_MEAN = {1: 2.0, 2: 2.0}
FAIR_SHARE = {1: 0.90, 2: 0.60, 4: 0.20}


def run_deal(number: int, suits: int, seconds: float, plan_nodes: int) -> dict:
    t0 = time.monotonic()
    fair = play_round(Game.new(number, suits=suits), plan_nodes)
    t1 = time.monotonic()
    hint = play_hints(Game.new(number, suits=suits))
    t2 = time.monotonic()
    # The solver's clock is this process's CPU time: on a shared machine, wall time would
    # count other programs' turns.  (Its wall time is reported too.)
    c2 = time.process_time()
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
        "deal": number, "suits": suits, "fair": fair, "fair_seconds": round(t1 - t0, 3),
        "hint": hint, "hint_seconds": round(t2 - t1, 3),
        "solver": found.result, "solved": solved, "solver_seconds": round(c3 - c2, 3), "solver_wall_seconds": round(t3 - t2, 3),
        "nodes": found.nodes, "solution_moves": len(found.moves or []),
    }


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %"


def summary(suits: int, rows: list[dict], seconds: float) -> tuple[str, list[str]]:
    n = len(rows)
    fair = sum(r["fair"] for r in rows)
    hint = sum(r["hint"] for r in rows)
    solved = [r for r in rows if r["solved"]]
    times = [r["solver_seconds"] for r in rows]
    solved_times = [r["solver_seconds"] for r in solved]
    fair_time = statistics.mean(r["fair_seconds"] for r in rows)
    wall = statistics.mean(r["solver_wall_seconds"] for r in rows)
    line = (
        f"| {suits} | {pct(fair, n)} ({fair}/{n}) | {fair_time:.2f} s | {pct(hint, n)} ({hint}/{n}) "
        f"| {pct(len(solved), n)} ({len(solved)}/{n}) | {statistics.mean(times):.2f} s "
        f"| {statistics.median(solved_times) if solved_times else 0:.2f} s "
        f"| {max(solved_times) if solved_times else 0:.2f} s | {wall:.2f} s |"
    )
    missed = []
    if len(solved) / n < SOLVER_SHARE[suits]:
        missed.append(f"{suits} suits: solver solved {pct(len(solved), n)}, budget ≥ {SOLVER_SHARE[suits]:.0%} within {seconds:g} s")
    if suits in SOLVER_MEAN and statistics.mean(times) > SOLVER_MEAN[suits]:
        missed.append(f"{suits} suits: solver mean {statistics.mean(times):.2f} s, budget ≤ {SOLVER_MEAN[suits]:g} s")
    if fair / n < FAIR_SHARE[suits]:
        missed.append(f"{suits} suits: fair bot won {pct(fair, n)}, budget ≥ {FAIR_SHARE[suits]:.0%}")
    return line, missed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    p.add_argument("--deals", type=int, default=100, help="how many deals per suit count (default 100)")
    p.add_argument("--suits", default="1,2,4", help="suit counts, comma separated (default 1,2,4)")
    p.add_argument("--seconds", type=float, default=10.0, help="solver CPU seconds a deal (default 10)")
    p.add_argument("--plan-nodes", type=int, default=PLAN_NODES, help=f"fair bot positions a plan (default {PLAN_NODES})")
    p.add_argument("--out", metavar="FILE", help="also write every deal's result as JSON")
    p.add_argument("--combine", nargs="+", metavar="FILE", help="print the table from --out files instead of playing")
    args = p.parse_args(argv)
    if args.combine:
        return combine(args.combine, args.seconds)
    suit_counts = [int(s) for s in args.suits.split(",")]
    deals = range(args.first, args.first + args.deals)
    started = time.monotonic()
    results: dict[int, list[dict]] = {}
    for suits in suit_counts:
        rows = results[suits] = []
        for number in deals:
            r = run_deal(number, suits, args.seconds, args.plan_nodes)
            rows.append(r)
            print(
                f"{suits} suits deal {number}: fair {'won' if r['fair'] else 'lost'} ({r['fair_seconds']:.2f} s), "
                f"hint {'won' if r['hint'] else 'lost'}, solver {r['solver']} {r['solver_seconds']:.2f} s "
                f"{r['nodes']} positions", file=sys.stderr, flush=True,
            )
    total = time.monotonic() - started
    print(f"Deals {deals.start}–{deals.stop - 1} at each suit count; solver stopped after {args.seconds:g} s of CPU time a deal; "
          f"fair bot {args.plan_nodes} positions a plan. One process, one thread, one run: {total / 60:.1f} min "
          f"(Python {platform.python_version()}, {platform.machine()}, load average at the end "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores).")
    print()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({str(k): v for k, v in results.items()}, f, indent=1)
    return table(results, args.seconds)


def table(results: dict[int, list[dict]], seconds: float) -> int:
    print("| suits | fair bot won | fair bot wall time a round | hint-bot won | solver solved | solver mean CPU time "
          "| solver median (solved) | solver max (solved) | solver mean wall time |")
    print("|---|---|---|---|---|---|---|---|---|")
    missed: list[str] = []
    for suits in sorted(results):
        line, miss = summary(suits, results[suits], seconds)
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
    results: dict[int, list[dict]] = {}
    for name in files:
        with open(name, encoding="utf-8") as f:
            for suits, rows in json.load(f).items():
                results.setdefault(int(suits), []).extend(rows)
    for suits, rows in results.items():
        rows.sort(key=lambda r: r["deal"])
        deals = [r["deal"] for r in rows]
        print(f"{suits} suits: deals {deals[0]}–{deals[-1]}, {len(deals)} deals"
              + ("" if len(set(deals)) == len(deals) else " (some twice!)"))
    print()
    return table(results, seconds)


if __name__ == "__main__":
    raise SystemExit(main())
