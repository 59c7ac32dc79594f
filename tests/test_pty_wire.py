"""The bytes on the wire in a real pty (SPEC §11, issue 10 item 15): opening and closing a dialog
over the table costs ≤ 8 KB at 100×30, and what the terminal shows afterwards is exactly what a
whole new frame would show (ui/wire.py leaves out only what the terminal already has)."""

from __future__ import annotations

import os
import time

from tests.test_pty import Pty
from tests.test_pty_newcomer import env_for, quit, read_until

F1, ESC = "\x1bOP", "\x1b"


def answer(p: Pty, keys: str, done=lambda p: True, quiet: float = 0.4, seconds: float = 60) -> int:
    """Send ``keys``; the bytes written in answer: read until ``done(p)`` holds (the outcome,
    however long a loaded machine takes; ``seconds`` is only an upper bound), then until
    ``quiet`` s without output."""
    os.write(p.fd, keys.encode())
    n, last, end = 0, time.monotonic(), time.monotonic() + seconds
    while time.monotonic() < end and (not done(p) or time.monotonic() - last < quiet):
        data = p.take()
        if data is None:
            break
        if data:
            n, last = n + len(data), time.monotonic()
    return n


def settle(p: Pty, quiet: float = 0.5, seconds: float = 60) -> None:
    """Read until the app has written nothing for ``quiet`` s (its first frame may come in
    several writes on a loaded machine)."""
    last, end = time.monotonic(), time.monotonic() + seconds
    while time.monotonic() < end and time.monotonic() - last < quiet:
        data = p.take()
        if data is None:
            break
        if data:
            last = time.monotonic()


def table_cells(p: Pty) -> list[tuple]:
    """Rows 3-28 (the columns) as a player sees them: characters and their colours (a blank
    shows only its background)."""
    out = []
    for y in range(2, 28):
        for x in range(p.screen.columns):
            c = p.screen.buffer[y][x]
            out.append((c.data, c.bg, c.reverse) if c.data == " " else
                       (c.data, c.fg, c.bg, c.bold, c.reverse, c.underscore))
    return out


def text(p: Pty) -> str:
    return "\n".join(p.screen.display)


def test_dialogs_cost_little_and_leave_the_table_exactly_as_a_new_frame(tmp_path):
    argv = ["--deal", "1", "--suits", "2"]
    fresh = Pty(argv, 100, 30, env_for(tmp_path / "a"))
    read_until(fresh, lambda s: "Moves: 0" in s and "q Menu" in s)
    settle(fresh)
    want = table_cells(fresh)
    quit(fresh)

    p = Pty(argv, 100, 30, env_for(tmp_path / "b"))
    read_until(p, lambda s: "Moves: 0" in s and "q Menu" in s)
    settle(p)
    assert table_cells(p) == want
    for keys, shows, close in ((F1, "SPIDER", ESC), ("s", "Spider stats", ESC), ("v1", "Column 1", ESC),
                               ("g", "Give up this round", "n")):
        opened = answer(p, keys, done=lambda p: shows in text(p) and table_cells(p) != want)
        assert shows in text(p), text(p)
        assert table_cells(p) != want  # the table behind is dimmed
        assert "7♥" in text(p)  # ... and still readable
        closed = answer(p, close, done=lambda p: shows not in text(p) and table_cells(p) == want)
        assert shows not in text(p), text(p)
        assert opened <= 8192 and closed <= 8192, (keys, opened, closed)
        assert table_cells(p) == want, keys  # every cell back, colours and all
    quit(p)


def test_after_a_resize_the_whole_screen_is_written_again(tmp_path):
    import fcntl
    import signal
    import struct
    import termios

    p = Pty(["--deal", "1", "--suits", "2"], 100, 30, env_for(tmp_path))
    read_until(p, lambda s: "Moves: 0" in s and "q Menu" in s)
    p.read(0.5)
    # A terminal that loses what it showed when resized (many clear or reflow): the app must
    # not leave out cells it wrote before the resize, even those that end up the same.
    p.screen.resize(30, 100)
    p.screen.reset()
    fcntl.ioctl(p.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    os.kill(p.pid, signal.SIGWINCH)
    read_until(p, lambda s: "Moves: 0" in s and "q Menu" in s and "7♥" in s)
    p.read(0.5)
    screen = text(p)
    assert "Deal 1 · 2 suits" in screen and "Deals: 5" in screen and "Undo" in screen, screen
    quit(p)


def test_the_start_writes_the_screen_once(tmp_path):
    """Issue 22, item 20: Textual sends a Resize to the size the terminal already has once at
    start; since the first frame comes before it, the wire forgot what it had written and the
    repaint after it wrote the whole screen a second time (6 KB more at every start).  Every
    later Resize still makes it write everything again (the test above)."""
    p = Pty(["--deal", "1", "--suits", "2"], 100, 30, env_for(tmp_path))
    raw = read_until(p, lambda s: "Moves: 0" in s and "q Menu" in s)
    end = time.monotonic() + 1.5  # the app settles: the start-up Resize, the footer, the GC
    while time.monotonic() < end:
        data = p.take()
        if data is None:
            break
        raw += data
    quit(p)
    assert raw.count(b"Moves: 0") == 1 and raw.count(b"Deals: 5") == 1, raw.count(b"Moves: 0")
    assert len(raw) < 8192, len(raw)
