"""Searches and memory (SPEC §11, issue 32 item 1): what 10 "could this still be won?" questions
and 10 winnable-deal proofs in a row leave in the asking process, and what a search child costs.

    python bench/search.py [--seconds S] [--in-process] [--start-only]

The asking process loads the app's modules (Textual, ``spider_tui.ui.app``) and asks the way the
app does: ``winnable.Question`` (4 suits, deals 1..10) and the winnable-deal search
(``search.find_winnable``, one 4-suit candidate deal each).  It prints its RSS after each search
and its peak (VmHWM), the children's peak, and what is left behind (threads, children).
``--in-process`` runs the same searches the way main did before the child process (the solver
in a thread of this process), for the before figure.  ``--start-only``: the cost of starting a
child (a fresh interpreter, what ``spider_tui.search`` does) against multiprocessing's
forkserver and spawn, median of 7.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def status(field: str, pid: str = "self") -> float:
    """A /proc/PID/status field in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def children_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _noop() -> None:
    import spider_tui.engine.solve  # noqa: F401  (what a search child imports)


def start_costs(n: int = 7) -> dict[str, float]:
    """Median wall ms to start a child that has imported the solver and ended."""
    from spider_tui import search

    out: dict[str, float] = {}
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-P", "-c", "import spider_tui.engine.solve, spider_tui.search_child"],
                       env=search._env(), check=True)
        times.append((time.perf_counter() - t) * 1000)
    out["fresh interpreter (spider_tui.search)"] = statistics.median(times)
    for method in ("forkserver", "spawn"):
        ctx = multiprocessing.get_context(method)
        t = time.perf_counter()
        p = ctx.Process(target=_noop)
        p.start()
        p.join()
        first = (time.perf_counter() - t) * 1000
        times = []
        for _ in range(n):
            t = time.perf_counter()
            p = ctx.Process(target=_noop)
            p.start()
            p.join()
            times.append((time.perf_counter() - t) * 1000)
        out[f"multiprocessing {method} (first {first:.0f} ms, then)"] = statistics.median(times)
    return out


def session(seconds: float, in_process: bool, quiet: bool = False) -> dict[str, object]:
    """10 questions and 10 winnable-deal proofs at 4 suits; RSS after each."""
    import spider_tui.ui.app  # noqa: F401  (the app's modules, as in the app)
    from spider_tui import search
    from spider_tui.engine import Game
    from spider_tui.engine.solve import solve
    from spider_tui.winnable import Question, proves_winnable

    start_rss = status("VmRSS")
    after: list[float] = []
    peak = start_rss
    sampling = threading.Event()
    samples: list[float] = []

    def sample() -> None:  # RSS at every moment (every 20 ms), not only between searches
        while not sampling.is_set():
            samples.append(status("VmRSS"))
            sampling.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    for deal in range(1, 11):
        game = Game.new(deal, suits=4)
        if in_process:
            box: list = []
            t = threading.Thread(target=lambda: box.append(solve(
                game.copy(), stop=lambda d=time.monotonic() + seconds: time.monotonic() >= d)))
            t.start()
            t.join()
            result = box[0].result
        else:
            done = threading.Event()
            got: list = []
            Question(game, lambda s, _t: (got.append(s), done.set()), seconds=seconds).start()
            done.wait()
            result = got[0].result
        after.append(status("VmRSS"))
        if not quiet:
            print(f"question {deal}: {result:13} RSS {after[-1]:.1f} MB", flush=True)
    for deal in range(11, 21):
        if in_process:
            ok = proves_winnable(deal * 7919, 4, seconds)
        else:
            ok = search.proves(deal * 7919, 4, seconds)
        after.append(status("VmRSS"))
        if not quiet:
            print(f"winnable deal {deal - 10}: {ok!s:5} RSS {after[-1]:.1f} MB", flush=True)
    sampling.set()
    sampler.join()
    peak = max([peak, *samples, *after])
    time.sleep(0.2)
    kids = [p for p in os.listdir("/proc") if p.isdigit() and _parent(p) == os.getpid()]
    return {"start": start_rss, "after": after, "peak": peak, "hwm": status("VmHWM"),
            "children_peak": children_peak_mb(), "threads": threading.active_count() - 1,
            "children": len(kids)}


def _parent(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time limit of each search (default 5)")
    ap.add_argument("--in-process", action="store_true", help="the searches in this process (main before)")
    ap.add_argument("--start-only", action="store_true", help="only the cost of starting a child")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.start_only:
        for name, ms in start_costs().items():
            print(f"start a search child, {name}: {ms:.0f} ms")
        return 0
    r = session(a.seconds, a.in_process, a.quiet)
    after = r["after"]
    assert isinstance(after, list)
    how = "in this process" if a.in_process else "each in a child"
    print(f"searches {how}: RSS at start {r['start']:.1f} MB, after 10 questions {after[9]:.1f} MB, "
          f"after 10 winnable deals {after[19]:.1f} MB, peak {r['peak']:.1f} MB (VmHWM {r['hwm']:.1f} MB); "
          f"largest child {r['children_peak']:.1f} MB; left behind: {r['threads']} threads, {r['children']} children")
    return 0 if r["peak"] <= 80 else 1


if __name__ == "__main__":
    sys.exit(main())
