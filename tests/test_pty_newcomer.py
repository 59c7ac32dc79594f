"""Issue 10 in a real pty: the first frame shows the table; ASCII on the Linux console; NO_COLOR."""

from __future__ import annotations

import os
import re

import pyte

from tests.test_pty import Pty

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣SHDC]")


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


def first_frame_with(raw: bytes, text: bytes) -> bytes:
    """The bytes up to the end of the frame in which ``text`` is first written: frames are
    told apart by synchronized output's marks (a frame painted before Textual knew of them ends
    where the next one begins)."""
    at = raw.index(text)
    ends = [i for i in (raw.find(b"\x1b[?2026l", at), raw.find(b"\x1b[?2026h", at)) if i >= 0]
    return raw[:min(ends)] if ends else raw


def test_the_first_frame_with_the_top_bar_already_shows_the_cards(tmp_path):
    """No frame shows the top bar over an empty table (the cards came a frame later once). The
    whole stream is read until the table is drawn, then the first frame with "Moves" is cut out
    of it and looked at alone (a busy machine hands one frame to the reader in pieces)."""
    p = Pty(["--deal", "1"], 100, 30, env_for(tmp_path), sync=True)

    def cards(screen: str) -> int:
        return max(len(CARD.findall(line)) for line in screen.splitlines())

    raw = read_until(p, lambda s: "Moves" in s and cards(s) == 10)
    quit(p)
    screen = pyte.Screen(100, 30)
    pyte.ByteStream(screen).feed(first_frame_with(raw, b"Moves"))
    shown = "\n".join(screen.display)
    assert b"\x1b[?2026" in raw  # frames are marked: the cut is a frame's end, not a guess
    assert cards(shown) == 10, shown


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
