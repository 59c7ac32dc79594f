"""``spider web`` in a real terminal (a pty): Ctrl+C typed at the terminal stops it cleanly."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time


def read_until(fd: int, text: bytes, seen: bytearray, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while text not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the program ended and the pty closed
                return text in seen
            if not chunk:
                return text in seen
            seen.extend(chunk)
    return text in seen


def wait_for_exit(pid: int, timeout: float) -> int | None:
    """The exit code, or None (and the program killed) when it did not end in time."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def test_ctrl_c_at_the_terminal_stops_the_server_cleanly(tmp_path):
    pid, fd = pty.fork()
    if pid == 0:  # child: the real command line, in a terminal of its own
        os.execv(sys.executable, [sys.executable, "-m", "spider_tui", "web", "--port", "0",
                                  "--data-dir", str(tmp_path / "data")])
    seen = bytearray()
    try:
        assert read_until(fd, b"Ctrl+C stops the server.", seen), seen.decode(errors="replace")
        assert b"spider is served at http://127.0.0.1:" in seen
        os.write(fd, b"\x03")  # Ctrl+C as typed: the terminal sends SIGINT to the program
        assert read_until(fd, b"stopping", seen), seen.decode(errors="replace")
        read_until(fd, b"\0never", seen, timeout=30)  # the rest, until the pty closes
        status = wait_for_exit(pid, timeout=30)
    finally:
        os.close(fd)
    assert status == 0, seen.decode(errors="replace")
    assert b"Traceback" not in seen and b"KeyboardInterrupt" not in seen, seen.decode(errors="replace")
