"""A program in a real pty, rendered with pyte: the measuring approach of ptyprobe.py.

Same approach as /work/shared/tools/ptyprobe.py (pty.fork, pyte.ByteStream, select, quiet
periods, process-tree CPU from /proc), with one change for timing: while a measurement runs
the reader only reads and timestamps (``os.read`` + ``time.monotonic``), and pyte is fed
afterwards, chunk by chunk.  So the time of "the screen first showed X" is the time the
chunk that completed X was read, not that plus pyte's own (slow) parsing time.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time

import pyte

TRUECOLOR = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"}


def tree_cpu(pid: int) -> float:
    """utime+stime (s) of pid and its descendants, from /proc (as ptyprobe.tree_cpu)."""
    ticks = os.sysconf("SC_CLK_TCK")
    kids: dict[int, list[tuple[int, float]]] = {}
    own = 0.0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        cpu = (int(parts[11]) + int(parts[12])) / ticks
        if int(p) == pid:
            own = cpu
        kids.setdefault(int(parts[1]), []).append((int(p), cpu))
    total, stack = own, [pid]
    while stack:
        for child, cpu in kids.get(stack.pop(), []):
            total += cpu
            stack.append(child)
    return total


def proc_cpu_ns(pid: int) -> int:
    """CPU time (ns) of pid's own threads (schedstat), without its children."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
    except (OSError, IndexError, ValueError):
        pass
    return total


def tree_cpu_ns(pid: int) -> int:
    """CPU time (ns) of pid, its threads and its descendants, from /proc/*/task/*/schedstat:
    nanosecond resolution, where /proc/*/stat counts 10 ms clock ticks."""
    kids: dict[int, list[int]] = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                kids.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(p))
        except (OSError, IndexError):
            continue
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
        except (OSError, IndexError, ValueError):
            pass
        stack.extend(kids.get(p, []))
    return total


def proc_status(pid: int, field: str) -> int | None:
    """A ``kB`` field of /proc/<pid>/status (VmHWM, VmRSS), in kB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Term:
    """One program in a pty of ``cols`` × ``rows``.  ``chunks`` keeps (time, bytes) of every read."""

    def __init__(self, argv: list[str], cols: int = 100, rows: int = 30, env: dict[str, str] | None = None,
                 cpu: bool = False):
        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        full_env = dict(TRUECOLOR, COLUMNS=str(cols), LINES=str(rows))
        full_env.update(env or {})
        self.t0 = time.monotonic()  # "fork": the clock starts just before the child exists
        pid, fd = pty.fork()
        if pid == 0:  # child: exec the program itself (no shell), so pid is the app's pid
            try:
                os.environ.update(full_env)
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.chunks: list[tuple[float, bytes]] = []
        self.fed = 0  # chunks already fed to pyte
        self.alive = True
        # with ``cpu``: the program's own CPU time (ns) right after each chunk was read
        self.cpu_at: dict[float, int] | None = {} if cpu else None
        self.cpu_ms: float | None = None  # set by the bench: CPU ms up to the first full frame

    # ------------------------------------------------------------------ reading
    @property
    def bytes(self) -> int:
        return sum(len(d) for _, d in self.chunks)

    def read(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for output; read and timestamp it.  0 = none, -1 = closed."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return 0
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        now = time.monotonic()
        if not data:
            self.alive = False
            return -1
        self.chunks.append((now, data))
        if self.cpu_at is not None:
            self.cpu_at[now] = proc_cpu_ns(self.pid)
        # answer queries that would otherwise stall a program, as ptyprobe does
        if b"\x1b[6n" in data:
            self.feed()
            os.write(self.fd, f"\x1b[{self.screen.cursor.y + 1};{self.screen.cursor.x + 1}R".encode())
        if b"\x1b[c" in data:
            os.write(self.fd, b"\x1b[?62;c")
        return len(data)

    def until_quiet(self, quiet: float, timeout: float = 15.0, since: float | None = None) -> float | None:
        """Read until no output for ``quiet`` s (counted from ``since`` or now).  Returns the time
        of the last chunk read in this call, or None when nothing came."""
        start_n = len(self.chunks)
        last = since if since is not None else time.monotonic()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            wait = quiet - (time.monotonic() - last)
            if wait <= 0:
                break
            n = self.read(wait)
            if n == -1:
                break
            if n > 0:
                last = self.chunks[-1][0]
        return self.chunks[-1][0] if len(self.chunks) > start_n else None

    # ------------------------------------------------------------------ the screen
    def feed(self, upto: int | None = None) -> None:
        upto = len(self.chunks) if upto is None else upto
        while self.fed < upto:
            self.stream.feed(self.chunks[self.fed][1])
            self.fed += 1

    def text(self) -> str:
        self.feed()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def first_match(self, test) -> float | None:
        """Feed unread chunks one at a time; the read time of the first chunk after which
        ``test(screen_text)`` holds, or None."""
        if self.fed and test("\n".join(self.screen.display)):
            return self.chunks[self.fed - 1][0]
        while self.fed < len(self.chunks):
            self.feed(self.fed + 1)
            if test("\n".join(self.screen.display)):
                return self.chunks[self.fed - 1][0]
        return None

    def wait_for(self, test, timeout: float = 15.0, quiet: float = 0.25) -> float | None:
        """Read until ``test(screen)`` holds; returns the read time of the chunk that made it hold.
        pyte is fed only in the pauses of the output (``quiet`` s), so reading keeps up."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            n = self.read(quiet)
            if n == -1:
                return self.first_match(test)
            if n == 0:
                hit = self.first_match(test)
                if hit is not None:
                    return hit
        return self.first_match(test)

    # ------------------------------------------------------------------ writing, ending
    def send(self, data: bytes) -> float:
        self.read(0)  # take anything pending first
        t = time.monotonic()
        os.write(self.fd, data)
        return t

    def close(self, quit_keys: bytes | None = b"q", timeout: float = 5.0) -> None:
        """Quit the program (keys, then SIGTERM, then SIGKILL) and reap it."""
        if quit_keys and self.alive:
            try:
                os.write(self.fd, quit_keys)
            except OSError:
                pass
        end = time.monotonic() + timeout
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                try:
                    os.kill(self.pid, sig)
                except ProcessLookupError:
                    pass
                end = time.monotonic() + 2
            while time.monotonic() < end:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    os.close(self.fd)
                    return
                self.read(0.02)
        os.close(self.fd)


def has(rx: str):
    pat = re.compile(rx, re.M | re.S)
    return lambda screen: bool(pat.search(screen))


def all_of(*tests):
    return lambda screen: all(t(screen) for t in tests)
