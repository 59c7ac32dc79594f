"""The Palast budgets of SPEC §13: bot players against real server processes, over loopback.

    python bench/palast.py                       # 50/200/500 players on one process, then 2 on PostgreSQL
    python bench/palast.py --players 1000 --pg-players 1000   # SPEC §13's budgets: 1,000 a process
    python bench/palast.py --players 50 --seconds 20 --no-postgresql
    python bench/palast.py --json out.json       # also write the figures as JSON

Part 1, one process (SQLite in a fresh data dir): for each N, a fresh `spider server`, then
`spider bots --players N --rate 1 --seconds S --json` (its own process; one connection per
bot). From the bots: actions, refused, errors, answer time p50/p99. From the server, read in
/proc: CPU time over the steady part of the run (from a third of it, at most 10 s, when the
bots have connected and sat down, to its end) as % of one core, and RSS; memory per player is
(peak RSS while the bots are connected − RSS before they came) / N.

Part 2, two processes on one PostgreSQL (a throwaway cluster, tests/pgcluster.py): both servers
on the same database, the bots split half and half, and alongside them probe pairs: player A
on process 1 and player B on process 2 at one private table; each deals in turn, and the time
from A's `play` to B's `progress` about A (and the other way round) is the cross-process delay.

Budgets (SPEC §13): 1,000 players a process p99 ≤ 50 ms; server CPU per action ≤ 0.3 ms on
SQLite and ≤ 0.6 ms on PostgreSQL (the servers' CPU over the whole bots run, connecting and sitting
down included, over the actions: the figure doesn't depend on how busy the bots are; printed
beside it, "steady": the servers' CPU between a third of the run and its last second ÷ the actions
the database gained in between, counted there by the benchmark); the bots'
own CPU ≤ 0.4 ms an action while they play (issue 32: one machine both serves and drives 1,000;
on one process judged in the steady part, on two over the whole run); for one process
also in the steady part (``Steady``: from a third into the run or, if later, the moment everyone
sat at a table in play, to its end, the server's and the bots' CPU ÷ the actions accepted in
between, and the answer time p50/p99 of those actions, printed as a second table, with the bots'
pace in it and, under it, what the bots spent beyond their steady rate, a bot: starting,
connecting, signing in, sitting down, closing); ≤ 100 KB server
memory per player; two processes with 0 errors; progress across processes ≤ 1 s. Exit status 1
when one is missed. Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

P99_BUDGET_MS = 50.0
SQLITE_MS_PER_ACTION = 0.3  # SPEC §13: server CPU per action on SQLite
PG_MS_PER_ACTION = 0.6  # and on PostgreSQL
BOTS_MS_PER_ACTION = 0.4  # issue 32: `spider bots` at level 0, so one machine can serve and drive 1,000
KB_PER_PLAYER_BUDGET = 100.0
CROSS_BUDGET_MS = 1000.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- processes ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Server:
    """`spider server` in a subprocess on 127.0.0.1:port."""

    def __init__(self, data_dir: Path, db: str | None = None, log_name: str = "server.log") -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "spider_tui", "server", "--host", "127.0.0.1",
                "--port", str(self.port), "--data-dir", str(data_dir),
                # every bot comes from 127.0.0.1: lift the limits per address (docs/security.md)
                "--per-address", "100000", "--names-per-hour", "100000", "--address-rate", "100000",
                # the figures are for people (the bots here); house bots would add their own play
                "--no-house-bots"]
        if db:
            args += ["--db", db]
        data_dir.mkdir(parents=True, exist_ok=True)
        self.log = data_dir / log_name
        self._log_file = open(self.log, "w")
        self.proc = subprocess.Popen(args, stdout=self._log_file, stderr=subprocess.STDOUT, cwd=ROOT)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited ({self.proc.returncode}): {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server not listening on {self.port} after {timeout} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log_file.close()


def start_bots(server: Server, players: int, seconds: float, rate: float = 1.0,
               progress: bool = False) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "spider_tui", "bots", "--server", server.url, "--players", str(players),
            "--rate", str(rate), "--seconds", str(seconds), "--level", "0", "--json"]  # level 0: the hint, cheap
    if progress:
        args.append("--progress")
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


class Steady:
    """The steady part of a run: the bots print the actions accepted so far once a second
    (``--progress``); at each report the server's and the bots' CPU are read.  From the first
    report a third into the run to the last one, CPU ÷ actions accepted in between is each one's
    CPU per action, after everyone has connected and sat down (what a long run costs)."""

    def __init__(self, server: Server, bots: subprocess.Popen[str], seconds: float) -> None:
        self.server, self.bots, self.seconds = server, bots, seconds
        self.seen: list[tuple[float, int, float, float]] = []  # (monotonic, actions, server CPU s, bots CPU s)
        self.last: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.bots.stdout is not None
        for line in self.bots.stdout:
            try:
                got = json.loads(line)
            except ValueError:
                continue
            if isinstance(got, dict) and "progress" in got:
                try:
                    self.seen.append((time.monotonic(), got["progress"], cpu_seconds(self.server.proc.pid),
                                      cpu_seconds(self.bots.pid)))
                except OSError:
                    pass
            else:
                self.last.append(line)

    def result(self, timeout: float) -> dict:
        self.bots.wait(timeout)
        self.thread.join(10)
        if self.bots.returncode != 0 or not self.last:
            err = self.bots.stderr.read() if self.bots.stderr else ""
            raise RuntimeError(f"spider bots exited {self.bots.returncode}: {err.strip()[-2000:]}")
        return json.loads(self.last[-1])

    def per_action(self, seated_at: float = 0.0) -> tuple[float, float, int, float]:
        """(server ms, bots ms an action, actions, seconds) in the steady part (zeros if too short).
        With ``seated_at`` (``time.monotonic()`` when everyone sat, ``LAST_SEATED_AT``) the part
        starts then if that is later than a third into the run: seating is not play."""
        if not self.seen:
            return 0.0, 0.0, 0, 0.0
        t0 = self.seen[0][0]
        part = [s for s in self.seen if s[0] - t0 >= self.seconds / 3 and s[0] >= seated_at]
        if len(part) < 2 or part[-1][1] == part[0][1]:
            return 0.0, 0.0, 0, 0.0
        a, b = part[0], part[-1]
        n = b[1] - a[1]
        return 1000 * (b[2] - a[2]) / n, 1000 * (b[3] - a[3]) / n, n, b[0] - a[0]


def bots_result(proc: subprocess.Popen[str], timeout: float) -> dict:
    out, err = proc.communicate(timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"spider bots exited {proc.returncode}: {err.strip()[-2000:]}")
    return json.loads(out.strip().splitlines()[-1])


# -- part 1: one process -------------------------------------------------------------------------


@dataclass
class LoadRow:
    setup: str
    players: int
    seconds: float
    actions: int = 0
    refused: int = 0
    errors: int = 0
    rounds_finished: int = 0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    cpu_percent: float = 0.0
    rss_mb: float = 0.0
    kb_per_player: float = 0.0
    cross_ms: list[float] = field(default_factory=list)
    bots_cpu_percent: float = 0.0
    server_ms_per_action: float = 0.0  # the servers' CPU over the whole bots run / the actions
    steady_ms_per_action: float = 0.0  # the servers' CPU between two points after seating / actions saved between
    seated_s: float = 0.0  # when every bot sat at a table in play (seconds into the run; 0 = not before the last 5 s)
    bots_ms_per_action: float = 0.0  # the bots' own CPU over the run / the actions
    errors_by_kind: dict = field(default_factory=dict)  # what the bots said each error was
    # The steady part (one process): from a third into the run, everyone seated (``Steady``).
    steady_p50_ms: float = 0.0
    steady_p99_ms: float = 0.0
    steady_server_ms: float = 0.0  # the server's CPU per action accepted in the steady part
    steady_bots_ms: float = 0.0
    steady_actions: int = 0
    steady_cpu_percent: float = 0.0  # the server's CPU in the steady part, % of one core
    steady_bots_percent: float = 0.0
    steady_pace: float = 0.0  # actions a second a bot played in the steady part (asked for: 1)
    steady_seated: bool = False  # the steady part began after everyone sat (else a third into the run)
    bots_once_ms: float = 0.0  # the bots' CPU beyond the steady rate over the run, a bot (start, connect, sit)


def watch(servers: list[Server], bots: list[subprocess.Popen[str]], seconds: float,
          count: "Callable[[], tuple[int, int]] | None" = None, players: int = 0) -> tuple[float, list[int], float]:
    """See ``_watch``; also records the bots' own CPU % (they share the machine) in ``LAST_BOTS_CPU``."""
    global LAST_BOTS_CPU
    LAST_BOTS_SEEN[0] = 0.0
    LAST_STEADY[0] = 0.0
    b0 = sum(_cpu_or_zero(b.pid) for b in bots)
    s0 = sum(cpu_seconds(s.proc.pid) for s in servers)
    t = time.monotonic()
    out = _watch(servers, bots, seconds, count, players)
    LAST_BOTS_CPU = 100 * (LAST_BOTS_SEEN[0] - b0) / max(1e-6, time.monotonic() - t)
    LAST_CPU_SECONDS[0] = sum(cpu_seconds(s.proc.pid) for s in servers) - s0
    LAST_CPU_SECONDS[1] = LAST_BOTS_SEEN[0] - b0
    return out


LAST_BOTS_CPU = 0.0
LAST_BOTS_SEEN = [0.0]
LAST_CPU_SECONDS = [0.0, 0.0]  # servers, bots: CPU seconds over the last whole bots run
LAST_STEADY = [0.0]  # the servers' CPU ms per action saved in the steady part of the last run
LAST_SEATED = [0.0]  # when everyone sat at a table in play (seconds into the last run; 0 = never)
LAST_SEATED_AT = [0.0]  # the same moment on time.monotonic() (0 = never)


#: What the benchmark reads from the database: the actions saved so far, and the seats at tables
#: in play that aren't private (the bots'; the probes sit at private ones): everyone is seated
#: when that is the number of players.
COUNTS = ("SELECT (SELECT count(*) FROM actions), (SELECT count(*) FROM seats s JOIN tables t "
          "ON t.id = s.table_id WHERE t.state = 'playing' AND t.private = 0)")


def saved_actions(dsn: str) -> "Callable[[], tuple[int, int]]":
    """``count()``: (actions saved, players seated at tables in play) now, read by the bench from
    the database (an SQLite path or a PostgreSQL URL); (-1, -1) when it can't be read."""
    def count() -> tuple[int, int]:
        try:
            if dsn.startswith("postgresql://"):
                import psycopg

                with psycopg.connect(dsn, autocommit=True) as c:
                    row = c.execute(COUNTS).fetchone()
            else:
                import sqlite3

                with sqlite3.connect(f"file:{dsn}?mode=ro", uri=True, timeout=5) as c:
                    row = c.execute(COUNTS).fetchone()
            assert row is not None
            return int(row[0]), int(row[1])
        except Exception:  # noqa: BLE001 - no figure rather than no benchmark
            return -1, -1
    return count


def merged_kinds(results: list[dict]) -> dict:
    kinds: dict = {}
    for r in results:
        for k, n in r.get("errors_by_kind", {}).items():
            kinds[k] = kinds.get(k, 0) + n
    return kinds


def per_action(cpu_seconds_: float, actions: int) -> float:
    """Milliseconds of CPU an action (the whole run: connecting and sitting down included)."""
    return 1000 * cpu_seconds_ / max(1, actions)


def _cpu_or_zero(pid: int) -> float:
    try:
        return cpu_seconds(pid)
    except OSError:
        return 0.0


def _watch(servers: list[Server], bots: list[subprocess.Popen[str]], seconds: float,
           count: "Callable[[], tuple[int, int]] | None" = None, players: int = 0) -> tuple[float, list[int], float]:
    """Sample the servers until the bots are done: (CPU % of one core in the steady part, peak RSS
    kB each, wall seconds).  The steady part starts when the bots have had time to connect and
    sit down (a quarter of the run, at most 10 s) and ends with the run.

    With ``count`` (``saved_actions``): ``LAST_STEADY`` is the servers' CPU from the moment all
    ``players`` sit at tables in play (read in the database) to a second before the run's end ÷
    the actions saved in between (neither seating nor closing in it); 0 when they never all sat
    before the last 5 s.  ``LAST_SEATED`` says when that was (seconds into the run)."""
    start = time.monotonic()
    warm = min(10.0, seconds / 4)
    n0 = n1 = -1
    c0 = 0.0
    LAST_SEATED[0] = LAST_SEATED_AT[0] = 0.0
    peaks = [rss_kb(s.proc.pid) for s in servers]
    cpu0 = t0 = None
    cpu1 = t1 = None
    while any(b.poll() is None for b in bots) and time.monotonic() - start < seconds + 120:
        time.sleep(0.25)
        now = time.monotonic() - start
        peaks = [max(p, rss_kb(s.proc.pid)) for p, s in zip(peaks, servers)]
        LAST_BOTS_SEEN[0] = max(LAST_BOTS_SEEN[0], sum(_cpu_or_zero(b.pid) for b in bots))
        if cpu0 is None and now >= warm:
            cpu0, t0 = sum(cpu_seconds(s.proc.pid) for s in servers), time.monotonic()
        if count is not None and n0 < 0 and now < seconds - 5:
            c = sum(cpu_seconds(s.proc.pid) for s in servers)
            saved, seated = count()
            if os.environ.get("BENCH_TRACE"):
                print(f"{now:5.1f} s: {saved} actions saved, {seated} seated, CPU {c:.1f} s", file=sys.stderr)
            if seated >= 0.99 * players:  # (one may have left a finished round)
                n0, c0, LAST_SEATED[0] = saved, c, now
                LAST_SEATED_AT[0] = start + now
        if cpu1 is None and now >= seconds - 1:
            cpu1, t1 = sum(cpu_seconds(s.proc.pid) for s in servers), time.monotonic()
            if count is not None and n0 >= 0:
                n1 = count()[0]
                LAST_STEADY[0] = 1000 * (cpu1 - c0) / max(1, n1 - n0)
    if cpu1 is None:
        cpu1, t1 = sum(cpu_seconds(s.proc.pid) for s in servers), time.monotonic()
    if cpu0 is None:
        cpu0, t0 = 0.0, start
    return 100 * (cpu1 - cpu0) / max(1e-6, t1 - t0), peaks, time.monotonic() - start


def one_process(players: int, seconds: float, work: Path) -> LoadRow:
    server = Server(work / f"sqlite-{players}")
    try:
        time.sleep(0.5)
        rss0 = rss_kb(server.proc.pid)
        bots = start_bots(server, players, seconds, progress=True)
        steady = Steady(server, bots, seconds)
        cpu_percent, (peak,), _ = watch([server], [bots], seconds,
                                        saved_actions(str(work / f"sqlite-{players}" / "palast.sqlite3")), players)
        result = steady.result(timeout=60)
        server_steady, bots_steady, steady_n, steady_s = steady.per_action(LAST_SEATED_AT[0])
    finally:
        server.stop()
    return LoadRow(
        setup="1 process, SQLite", players=players, seconds=seconds,
        actions=result["actions"], refused=result["refused"], errors=result["errors"],
        rounds_finished=result["rounds_finished"], p50_ms=result["p50_ms"], p99_ms=result["p99_ms"],
        cpu_percent=cpu_percent, rss_mb=peak / 1024, kb_per_player=(peak - rss0) / players,
        bots_cpu_percent=LAST_BOTS_CPU, server_ms_per_action=per_action(LAST_CPU_SECONDS[0], result["actions"]),
        bots_ms_per_action=per_action(LAST_CPU_SECONDS[1], result["actions"]),
        steady_ms_per_action=LAST_STEADY[0], seated_s=LAST_SEATED[0],
        errors_by_kind=result.get("errors_by_kind", {}),
        steady_p50_ms=result.get("steady_p50_ms") or 0.0, steady_p99_ms=result.get("steady_p99_ms") or 0.0,
        steady_server_ms=server_steady, steady_bots_ms=bots_steady, steady_actions=steady_n,
        steady_cpu_percent=100 * server_steady * steady_n / 1000 / max(1e-6, steady_s),
        steady_bots_percent=100 * bots_steady * steady_n / 1000 / max(1e-6, steady_s),
        steady_pace=steady_n / max(1e-6, steady_s) / players, steady_seated=LAST_SEATED_AT[0] > 0,
        bots_once_ms=(LAST_CPU_SECONDS[1] - bots_steady * result["actions"] / 1000) * 1000 / players if steady_n else 0.0,
    )


# -- part 2: two processes on PostgreSQL ----------------------------------------------------------


class Player:
    """A raw protocol-1 connection (SPEC §13), used by the cross-process probe."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.inbox: asyncio.Queue[tuple[float, dict]] = asyncio.Queue()

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, max_size=2**20)
        self._reader = asyncio.create_task(self._read())
        await self.send({"type": "hello", "protocol": 1, "name": self.name, "token": None})
        await self.expect("welcome")

    async def _read(self) -> None:
        async for raw in self.ws:
            self.inbox.put_nowait((time.perf_counter(), json.loads(raw)))

    async def send(self, msg: dict) -> float:
        t = time.perf_counter()
        await self.ws.send(json.dumps(msg))
        return t

    async def expect(self, type_: str, timeout: float = 30, **match: object) -> tuple[float, dict]:
        async with asyncio.timeout(timeout):
            while True:
                t, msg = await self.inbox.get()
                if msg.get("type") in ("error", "refused") and type_ not in ("error", "refused"):
                    raise RuntimeError(f"{self.name}: {msg}")
                if msg.get("type") == type_ and all(msg.get(k) == v for k, v in match.items()):
                    return t, msg

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


async def probe_pair(url_a: str, url_b: str, tag: str, gap: float) -> list[float]:
    """A on process 1, B on process 2 at one private table; each deals 5 times in turn."""
    a, b = Player(url_a, f"probe{tag}a"), Player(url_b, f"probe{tag}b")
    await a.connect()
    await b.connect()
    try:
        await a.send({"type": "open", "suits": 1, "rules": "classic", "rounds": 1, "seats": 2, "private": True})
        _, joined = await a.expect("joined")
        await b.send({"type": "join", "code": joined["code"]})
        await b.expect("joined")
        await a.send({"type": "start"})
        await a.expect("round")
        await b.expect("round")
        delays = []
        for _ in range(5):
            for me, other in ((a, b), (b, a)):
                t0 = await me.send({"type": "play", "move": "deal"})
                await me.expect("played")
                t1, _ = await other.expect("progress", player=me.name, timeout=10)
                delays.append((t1 - t0) * 1000)
                await asyncio.sleep(gap)
        return delays
    finally:
        await a.close()
        await b.close()


async def probes(url_a: str, url_b: str, pairs: int, gap: float, delay: float = 0.0) -> list[float]:
    await asyncio.sleep(delay)
    tag = str(os.getpid() % 10000)
    results = await asyncio.gather(*(probe_pair(url_a, url_b, f"{tag}x{i}", gap) for i in range(pairs)))
    return [d for r in results for d in r]


def two_processes(players: int, seconds: float, work: Path, pairs: int) -> LoadRow:
    from tests.pgcluster import PgCluster

    with PgCluster() as cluster:
        url = cluster.create_database("palast")
        servers = [Server(work / f"pg-{i}", db=url) for i in (1, 2)]
        try:
            time.sleep(0.5)
            rss0 = [rss_kb(s.proc.pid) for s in servers]
            bots = [start_bots(s, players // 2, seconds) for s in servers]
            # The probe runs under load, alongside the bots (in a thread: its own event loop).
            box: list[list[float]] = []
            probe = threading.Thread(target=lambda: box.append(asyncio.run(
                probes(servers[0].url, servers[1].url, pairs, gap=0.3, delay=seconds / 3))))
            probe.start()
            cpu_percent, peaks, _ = watch(servers, bots, seconds, saved_actions(url), 2 * (players // 2))
            cpu_after_bots, bots_after = LAST_CPU_SECONDS
            probe.join(120)
            cross = box[0] if box else []
            results = [bots_result(b, timeout=60) for b in bots]
        finally:
            for s in servers:
                s.stop()
    n = sum(r["players"] for r in results)
    return LoadRow(
        setup="2 processes, PostgreSQL", players=n, seconds=seconds,
        actions=sum(r["actions"] for r in results), refused=sum(r["refused"] for r in results),
        errors=sum(r["errors"] for r in results),
        rounds_finished=sum(r["rounds_finished"] for r in results),
        p50_ms=max(r["p50_ms"] for r in results), p99_ms=max(r["p99_ms"] for r in results),
        cpu_percent=cpu_percent, rss_mb=sum(peaks) / 1024, bots_cpu_percent=LAST_BOTS_CPU,
        kb_per_player=(sum(peaks) - sum(rss0)) / max(n, 1), cross_ms=cross,
        server_ms_per_action=per_action(cpu_after_bots, sum(r["actions"] for r in results)),
        bots_ms_per_action=per_action(bots_after, sum(r["actions"] for r in results)),
        steady_ms_per_action=LAST_STEADY[0], seated_s=LAST_SEATED[0], errors_by_kind=merged_kinds(results),
    )


# -- report ----------------------------------------------------------------------------------------


def table(rows: list[LoadRow]) -> str:
    lines = [
        "| setup | players | actions | refused | errors | rounds | p50 ms | p99 ms | server CPU (steady) "
        "| server CPU/action | all seated at | steady server CPU/action | bots CPU | bots CPU/action | RSS MB | KB/player |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.setup} | {r.players} | {r.actions} | {r.refused} | {r.errors} | {r.rounds_finished} "
            f"| {r.p50_ms:.1f} | {r.p99_ms:.1f} | {r.cpu_percent:.0f} % | {r.server_ms_per_action:.2f} ms | {r.seated_s:.1f} s | {r.steady_ms_per_action:.3f} ms "
            f"| {r.bots_cpu_percent:.0f} % | {r.bots_ms_per_action:.2f} ms | {r.rss_mb:.0f} | {r.kb_per_player:.0f} |"
        )
    steady = [r for r in rows if r.steady_actions]
    if steady:
        lines += ["", "steady part (one process: from a third into the run, everyone seated, to its end; "
                      "CPU ÷ the actions accepted in between):", "",
                  "| setup | players | actions | p50 ms | p99 ms | server CPU | server CPU/action "
                  "| bots CPU | bots CPU/action | actions/s a bot |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in steady:
            lines.append(
                f"| {r.setup} | {r.players} | {r.steady_actions} | {r.steady_p50_ms:.1f} | {r.steady_p99_ms:.1f} "
                f"| {r.steady_cpu_percent:.0f} % | {r.steady_server_ms:.3f} ms | {r.steady_bots_percent:.0f} % "
                f"| {r.steady_bots_ms:.3f} ms | {r.steady_pace:.2f} |")
        for r in steady:
            # the bots' budget is for their CPU an action while they play (bench/README.md)
            lines += ["", f"`spider bots` at level 0, {r.players} bots: {r.steady_bots_ms:.3f} ms of CPU an action "
                      f"while playing (≤ {BOTS_MS_PER_ACTION} ms; the steady part"
                      f"{'' if r.steady_seated else ', though not everyone had sat down'}, "
                      f"{r.steady_pace:.2f} actions a second a bot: a slower server means fewer actions "
                      f"for the same connections, timers and progress a second, so more CPU an action); "
                      f"{r.bots_ms_per_action:.2f} ms over the whole run, which adds about "
                      f"{r.bots_once_ms:.1f} ms a bot to start, connect, sign in, sit down and close"]
    for r in rows:
        if r.errors_by_kind:
            lines.append("")
            lines.append(f"errors ({r.setup}, {r.players} players): " + "; ".join(
                f"{n} × {kind}" for kind, n in sorted(r.errors_by_kind.items(), key=lambda kv: -kv[1])))
    for r in rows:
        if r.cross_ms:
            c = sorted(r.cross_ms)
            p99 = c[min(len(c) - 1, int(0.99 * len(c)))]
            lines.append("")
            lines.append(
                f"cross-process `progress` ({r.setup}, {len(c)} samples, play→progress on the other "
                f"process): p50 {statistics.median(c):.0f} ms, p99 {p99:.0f} ms, max {c[-1]:.0f} ms"
            )
    return "\n".join(lines)


def verdicts(rows: list[LoadRow]) -> list[str]:
    missed = []
    for r in rows:
        if r.players >= 1000 and r.p99_ms > P99_BUDGET_MS:
            missed.append(f"{r.setup} {r.players} players: p99 {r.p99_ms:.1f} ms > {P99_BUDGET_MS:.0f} ms")
        if r.kb_per_player > KB_PER_PLAYER_BUDGET:
            missed.append(f"{r.setup} {r.players} players: {r.kb_per_player:.0f} KB/player > {KB_PER_PLAYER_BUDGET:.0f}")
        if r.cross_ms and max(r.cross_ms) > CROSS_BUDGET_MS:
            missed.append(f"{r.setup}: cross-process progress up to {max(r.cross_ms):.0f} ms > {CROSS_BUDGET_MS:.0f} ms")
        if r.errors:
            missed.append(f"{r.setup} {r.players} players: {r.errors} errors")
        cpu_budget = PG_MS_PER_ACTION if "PostgreSQL" in r.setup else SQLITE_MS_PER_ACTION
        if r.server_ms_per_action > cpu_budget:
            missed.append(f"{r.setup} {r.players} players: server CPU {r.server_ms_per_action:.2f} ms/action > {cpu_budget}")
        if r.steady_server_ms > cpu_budget:
            missed.append(f"{r.setup} {r.players} players: server CPU {r.steady_server_ms:.3f} ms/action "
                          f"in the steady part > {cpu_budget}")
        if r.steady_actions:  # while playing (the start-up per bot is printed beside it)
            if r.steady_bots_ms > BOTS_MS_PER_ACTION:
                missed.append(f"{r.setup} {r.players} players: bots CPU {r.steady_bots_ms:.3f} ms/action "
                              f"in the steady part > {BOTS_MS_PER_ACTION}")
        elif r.bots_ms_per_action > BOTS_MS_PER_ACTION:
            missed.append(f"{r.setup} {r.players} players: bots CPU {r.bots_ms_per_action:.2f} ms/action > {BOTS_MS_PER_ACTION}")
    return missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="50,200,500", help="comma-separated counts for one process")
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each bots run")
    ap.add_argument("--pg-players", type=int, default=200, help="players split over 2 processes")
    ap.add_argument("--pairs", type=int, default=5, help="probe pairs for the cross-process delay")
    ap.add_argument("--no-postgresql", action="store_true", help="skip part 2")
    ap.add_argument("--json", type=Path, help="also write the rows here")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    work = Path(tempfile.mkdtemp(prefix="spider-bench-palast-"))
    rows: list[LoadRow] = []
    try:
        for n in counts:
            print(f"one process, {n} players, {args.seconds:.0f} s …", file=sys.stderr, flush=True)
            rows.append(one_process(n, args.seconds, work))
        if not args.no_postgresql:
            print(f"two processes on PostgreSQL, {args.pg_players} players …", file=sys.stderr, flush=True)
            rows.append(two_processes(args.pg_players, args.seconds, work, args.pairs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(table(rows))
    missed = verdicts(rows)
    print()
    print("budgets: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
