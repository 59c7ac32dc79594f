"""The Palast budget of SPEC §13, measured with bot players over loopback:

    python bench/palast_load.py [--players 500] [--rate 1] [--seconds 30]

Starts `spider server` (a fresh SQLite database in a temp dir) and `spider bots` as separate
processes on this machine and prints one JSON line: the bots' summary (actions, refused, errors,
p50/p99 action→answer in ms), the server's RSS before and at the end and per connected player,
and the share of one core the server used.  The bots' own process competes for the same cores,
so on a busy 2-core machine the answer times include waiting for the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rate", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    a = ap.parse_args()
    data = tempfile.mkdtemp()
    server = subprocess.Popen([sys.executable, "-m", "spider_tui", "server", "--port", "0", "--data-dir", data,
                               "--per-address", "100000", "--names-per-hour", "100000", "--address-rate", "100000",
                               "--no-house-bots"],  # the load of people only, as the README's figures
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split("listening on ")[1].strip()
        rss0, cpu0, t0 = rss_kb(server.pid), cpu_seconds(server.pid), time.monotonic()
        bots = subprocess.run([sys.executable, "-m", "spider_tui", "bots", "--server", url, "--players", str(a.players),
                               "--rate", str(a.rate), "--seconds", str(a.seconds), "--json"],
                              capture_output=True, text=True)
        rss1, cpu1, t1 = rss_kb(server.pid), cpu_seconds(server.pid), time.monotonic()
        summary = json.loads(bots.stdout)
        summary.update(
            server_rss_start_kb=rss0, server_rss_end_kb=rss1,
            server_kb_per_player=round((rss1 - rss0) / max(1, a.players), 1),
            server_core_share=round((cpu1 - cpu0) / (t1 - t0), 2),
            actions_per_second=round(summary["actions"] / a.seconds, 1),
            load_average=os.getloadavg()[0],
        )
        print(json.dumps(summary))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
