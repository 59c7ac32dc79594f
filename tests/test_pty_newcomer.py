"""Issue 10 in a real pty: ASCII on the Linux console; NO_COLOR; keys typed before the first frame.

(That the first frame shows the whole table is checked on the paints themselves, in
tests/ui/test_first_paint.py: a pty reader can't tell frames apart once the first one comes
before the terminal's answer about synchronized output.)
"""

from __future__ import annotations

import os
import re

from tests.test_pty import Pty


def env_for(tmp_path, **extra) -> dict[str, str]:
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8", "SPIDER_DATA_DIR": str(tmp_path)}
    env.update(extra)
    return env


def read_until(p: Pty, test, seconds: float = 20) -> bytes:
    """Feed output chunk by chunk until ``test(screen_text)`` holds; returns every byte read."""
    return p.read_until(test, seconds)


def quit(p: Pty) -> None:
    os.write(p.fd, b"\x11")  # Ctrl+Q
    p.exit_status()


def test_linux_console_gets_ascii_only(tmp_path):
    p = Pty(["--deal", "1"], 80, 24, env_for(tmp_path, TERM="linux", LANG="C"))
    read_until(p, lambda s: all(w in s for w in ("Deal 1 - 1 suit", "Deals: 5", "New", "Undo", "Help"))
               and re.search(r"\b(?:10|[2-9AJQK])S\b", s) is not None)  # the whole first frame
    screen = "\n".join(p.screen.display)
    assert all(ord(ch) < 128 for ch in screen), [ch for ch in screen if ord(ch) >= 128][:5]
    quit(p)


def test_a_plain_c_locale_alone_keeps_the_glyphs(tmp_path):
    # Over SSH the server's locale is often C while the player's terminal is UTF-8.
    p = Pty(["--deal", "1"], 80, 24, env_for(tmp_path, LANG="C", TERM="xterm-256color"))
    read_until(p, lambda s: "♠" in s and "Moves" in s)
    quit(p)


def test_no_color_writes_no_colour_codes(tmp_path):
    p = Pty(["--deal", "1"], 100, 30, env_for(tmp_path, NO_COLOR="1"))
    raw = read_until(p, lambda s: "Moves" in s and "Undo" in s)
    os.write(p.fd, b"1")
    raw += read_until(p, lambda s: "▲" in s)  # column 1's group held
    sgr = re.findall(rb"\x1b\[([0-9;]*)m", raw)
    colour = [s for s in sgr if re.search(rb"(?:^|;)(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;|$)", s)]
    assert not colour, colour[:5]
    screen = "\n".join(p.screen.display)
    # One card reads as one card: without colour the exposed card is one reversed block, its
    # corner, suit and corner rows all in reverse video (issue 22 item 10: it was a one-line
    # "7♠" with the rest of the card blank).
    rows = [y for y, line in enumerate(p.screen.display) if re.search(r"^\s*♠(\s+♠){9}\s*$", line)]
    assert rows, screen
    y = rows[0]
    col2 = p.screen.display[y].index("♠", 5)  # column 2's suit row (column 1's group is held)
    for dy in (-1, 0, 1):
        assert p.screen.buffer[y + dy][col2].reverse, (dy, screen)
    quit(p)


def test_keys_typed_before_the_first_frame_reach_the_first_screen(tmp_path):
    """Issue 22, item 2 at start: keys already typed when the program starts (a fast typist over
    SSH) wait for the first screen and reach it in order, not the blank screen before it."""
    p = Pty(["--deal", "1", "--suits", "1"], 100, 30, env_for(tmp_path))
    p.type("?")  # before the program has drawn anything: the hint of the round's first position
    read_until(p, lambda s: "Hint:" in s and "Moves: 0" in s)
    quit(p)
    p = Pty([], 100, 30, env_for(tmp_path / "fresh"))
    p.type("n?")  # on the start screen: a new round, then its hint
    read_until(p, lambda s: "Hint:" in s and "Moves: 0" in s)
    quit(p)
    # A name typed ahead of the Palast's form goes into the name field (it replaced the address).
    p = Pty(["--server", "ws://127.0.0.1:9"], 100, 30, env_for(tmp_path / "palast"))
    p.type("Newbie")
    read_until(p, lambda s: "Newbie" in s and "ws://127.0.0.1:9" in s)
    rows = p.screen.display
    address, name = (next(i for i, row in enumerate(rows) if text in row) for text in ("ws://127.0.0.1:9", "Newbie"))
    assert "Your name" in "".join(rows[address:name]), "\n".join(rows)
    quit(p)
