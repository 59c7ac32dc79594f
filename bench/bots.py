"""`spider bots`' own cost (issue 32 item 4, SPEC §13): CPU time of the bots' process per
accepted action at level 0, against a real `spider server` (SQLite, 127.0.0.1).

    python bench/bots.py [--players 100] [--seconds 30] [--rate 1] [--level 0]

The figure is the bots' process CPU (utime + stime from /proc, each also printed) between two
reads in the steady part of the run (from a third of it or, if later, the moment every bot sits
at a table in play, counted in the server's database, to its last second: connections and seats
are made, the start-up imports are over) divided by the actions accepted in between, which the
bots print while they play (``--progress``).  Budget: ≤ 0.4 ms an action at level 0.

`bench/palast.py` prints the same figure, measured the same way, for its one-process runs (its
second table).  The two differ only as their runs do: part of the bots' work comes per second
(every connection's timers, keepalive pings and the others' progress, a write of the server's
every 0.25 s per table), not per action, so a run where the server answers slower (fewer actions
a second a bot, printed) costs more CPU an action.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from palast import CLK_TCK, ROOT, Server, cpu_seconds, saved_actions  # noqa: E402

BUDGET_MS = 0.4


def user_system(pid: int) -> tuple[float, float]:
    """utime and stime of a process (seconds), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


def measure(players: int, seconds: float, rate: float, level: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="spider-bench-bots-") as tmp:
        server = Server(Path(tmp) / "server")
        try:
            args = [sys.executable, "-m", "spider_tui", "bots", "--server", server.url, "--players", str(players),
                    "--rate", str(rate), "--seconds", str(seconds), "--level", str(level), "--json", "--progress"]
            started = time.monotonic()
            bots = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
            seen: list[tuple[float, int, float, float]] = []  # (monotonic, actions so far, bots user s, system s)
            last: list[str] = []

            def read() -> None:
                assert bots.stdout is not None
                for line in bots.stdout:
                    try:
                        got = json.loads(line)
                    except ValueError:
                        continue
                    if "progress" in got:
                        try:
                            seen.append((time.monotonic(), got["progress"], *user_system(bots.pid)))
                        except OSError:
                            pass
                    else:
                        last.append(line)

            seated_at = [0.0]  # time.monotonic() when every bot sat at a table in play (0: never)

            def watch_seats() -> None:  # until 5 s before the end, as bench/palast.py does
                count = saved_actions(str(Path(tmp) / "server" / "palast.sqlite3"))
                while bots.poll() is None and not seated_at[0] and time.monotonic() - started < seconds - 5:
                    if count()[1] >= 0.99 * players:  # (one may have left a finished round)
                        seated_at[0] = time.monotonic()
                    time.sleep(0.25)

            reader = threading.Thread(target=read)
            reader.start()
            seats = threading.Thread(target=watch_seats, daemon=True)
            seats.start()
            server_cpu0 = cpu_seconds(server.proc.pid)
            bots.wait(seconds + 120)
            reader.join(10)
            server_cpu = cpu_seconds(server.proc.pid) - server_cpu0
        finally:
            server.stop()
    if bots.returncode != 0 or not last:
        raise RuntimeError(f"spider bots exited {bots.returncode}: {bots.stderr.read()[-2000:] if bots.stderr else ''}")
    summary = json.loads(last[-1])
    t0 = seen[0][0] if seen else 0.0
    steady = [s for s in seen if s[0] - t0 >= seconds / 3 and s[0] >= seated_at[0]]
    if len(steady) < 2 or steady[-1][1] == steady[0][1]:
        raise RuntimeError("too few progress reports to measure")
    a, b = steady[0], steady[-1]
    done = b[1] - a[1]
    summary["bots_cpu_ms_per_action"] = (b[2] + b[3] - a[2] - a[3]) * 1000 / done
    summary["bots_user_ms_per_action"] = (b[2] - a[2]) * 1000 / done
    summary["bots_system_ms_per_action"] = (b[3] - a[3]) * 1000 / done
    summary["steady_actions"] = b[1] - a[1]
    summary["steady_pace"] = done / max(1e-6, b[0] - a[0]) / players  # actions a second a bot
    summary["seated_s"] = seated_at[0] - t0 if seated_at[0] else None
    summary["server_cpu_ms_per_action_whole_run"] = server_cpu * 1000 / max(1, summary["actions"])
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--rate", type=float, default=1.0)
    ap.add_argument("--level", type=int, default=0)
    a = ap.parse_args()
    r = measure(a.players, a.seconds, a.rate, a.level)
    ok = r["bots_cpu_ms_per_action"] <= BUDGET_MS or a.level != 0
    print(f"| spider bots CPU per action, level {a.level}, {a.players} players at {a.rate:g}/s "
          f"({r['steady_actions']} actions in the steady part) | {r['bots_cpu_ms_per_action']:.3f} ms | "
          f"≤ {BUDGET_MS} ms | {'yes' if ok else 'no'} |")
    print(f"  of which user {r['bots_user_ms_per_action']:.3f} ms, system {r['bots_system_ms_per_action']:.3f} ms; "
          f"actions {r['actions']}, refused {r['refused']}, errors {r['errors']}, p50 {r['p50_ms']} ms, "
          f"p99 {r['p99_ms']} ms; server CPU per action over the whole run {r['server_cpu_ms_per_action_whole_run']:.2f} ms")
    seated = f"all seated {r['seated_s']:.1f} s in" if r["seated_s"] is not None else "not all seated: from a third in"
    print(f"  steady part: {r['steady_pace']:.2f} actions a second a bot ({seated}); a slower server means "
          f"fewer actions a second for the same connections, so more CPU an action")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
