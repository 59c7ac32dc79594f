"""The real program in a real pty (SPEC §12): a hang-up keeps the round; a tiny terminal is told."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
import tomllib

import pyte


class Pty:
    #: Answer Textual's question for synchronized output (mode 2026) as a modern terminal does,
    #: so every frame comes between ``ESC[?2026h`` and ``ESC[?2026l`` and a test can tell frames apart.
    sync = False

    def __init__(self, argv: list[str], cols: int, rows: int, env: dict[str, str], *, sync: bool = False):
        self.sync = sync
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        pid, fd = pty.fork()
        if pid == 0:  # child
            # An explicit environment: the size must come from the pty, and a test runner may
            # have put COLUMNS/LINES into the C environment behind os.environ's back.
            child_env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
            child_env.update(env)
            # Size the pty before the program starts: a resize after its start could race it.
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(sys.executable, [sys.executable, "-m", "spider_tui", *argv], child_env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def take(self, wait: float = 0.05) -> bytes | None:
        """Read what the program wrote within ``wait`` seconds onto the screen: b"" when nothing
        came, None when the program is gone. A cursor position request is answered like a
        terminal does. The one reader of the pty tests."""
        r, _, _ = select.select([self.fd], [], [], wait)
        if not r:
            return b""
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return None
        if not data:
            return None
        self.took(data)
        self.stream.feed(data)
        if b"\x1b[6n" in data:
            os.write(self.fd, b"\x1b[1;1R")
        if self.sync and b"\x1b[?2026$p" in data:  # a modern terminal: synchronized output is there
            os.write(self.fd, b"\x1b[?2026;2$y")
        return data

    def took(self, data: bytes) -> None:
        """Called with every chunk read (a subclass may keep them)."""

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.take() is None:
                return

    def read_until(self, test, seconds: float = 20) -> bytes:
        """Read until ``test(screen_text)`` holds; returns every byte read (fails on time out)."""
        raw = b""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            data = self.take()
            if data is None:
                break
            raw += data
            if data and test("\n".join(self.screen.display)):
                return raw
        raise AssertionError("timed out:\n" + "\n".join(self.screen.display))

    def wait_for(self, text: str, seconds: float = 20) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.read(0.1)
            if text in "\n".join(self.screen.display):
                return True
        return False

    def type(self, keys: str) -> None:
        """Type ``keys`` and go on at once: the caller waits for what it expects to see."""
        os.write(self.fd, keys.encode())

    def send(self, keys: str) -> None:
        """Type ``keys`` and let the program take them in (for a caller that can't name the
        screen it waits for)."""
        self.type(keys)
        self.read(0.3)

    def exit_status(self, seconds: float = 10) -> int | None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return status
        os.kill(self.pid, signal.SIGKILL)
        return None


def env_for(tmp_path) -> dict[str, str]:
    return {"SPIDER_DATA_DIR": str(tmp_path), "TERM": "xterm-256color", "COLORTERM": "truecolor"}


def test_hang_up_keeps_the_round(tmp_path):
    p = Pty(["--deal", "1", "--suits", "2"], 100, 30, env_for(tmp_path))
    assert p.wait_for("Moves: 0"), "\n".join(p.screen.display)
    p.type("24")
    assert p.wait_for("Moves: 1")
    os.kill(p.pid, signal.SIGHUP)  # the SSH link drops
    assert p.exit_status() is not None
    data = tomllib.loads((tmp_path / "save.toml").read_text())
    from spider_tui.store.rounds import latest_round

    _, kept = latest_round(data)
    assert kept.moves == 1 and kept.deal == 1


def test_sigint_right_after_a_move_keeps_the_round(tmp_path):
    """Issue 9, item 10: SIGINT within the autosave delay still saves the round."""
    p = Pty(["--deal", "1", "--suits", "2"], 100, 30, env_for(tmp_path))
    assert p.wait_for("Moves: 0"), "\n".join(p.screen.display)
    os.write(p.fd, b"d")
    assert p.wait_for("Moves: 1")
    os.kill(p.pid, signal.SIGINT)
    assert p.exit_status() is not None
    from spider_tui.store.rounds import latest_round

    _, kept = latest_round(tomllib.loads((tmp_path / "save.toml").read_text()))
    assert kept.moves == 1 and kept.deal == 1


def test_tiny_terminal_says_the_size_needed(tmp_path):
    p = Pty(["--deal", "1"], 40, 12, env_for(tmp_path))
    assert p.wait_for("This one is 40×12"), "\n".join(p.screen.display)
    assert "40×20" in "\n".join(p.screen.display)
    p.type("\x11")  # Ctrl+Q quits from anywhere
    assert p.exit_status() is not None
