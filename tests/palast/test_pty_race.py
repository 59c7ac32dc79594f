"""Two real app instances in two real ptys race one table on a real `spider server` (SPEC §13):
Anna opens a 1-round table, Bo joins it from the lobby, Anna starts, each sees the other's line
above the table, an opponent's progress repaints only that line (≤ 300 bytes), both give up and
both see the final ranking."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from tests.test_pty import Pty
from tests.waiting import stop_process


class CountingPty(Pty):
    """A Pty that keeps every chunk it read (for the bytes of one update)."""

    def __init__(self, *a, **kw):
        self.chunks: list[bytes] = []
        super().__init__(*a, **kw)

    def took(self, data: bytes) -> None:
        self.chunks.append(data)

    def text(self) -> str:
        return "\n".join(self.screen.display)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_apps_race_one_table(tmp_path):
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "spider_tui", "server", "--port", str(port),
                               "--data-dir", str(tmp_path / "server")],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    apps: list[CountingPty] = []
    try:
        line = server.stdout.readline().decode()
        assert "listening" in line, line

        def app(name: str) -> CountingPty:
            env = {"SPIDER_DATA_DIR": str(tmp_path / name), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
            p = CountingPty(["--server", url], 80, 24, env)
            apps.append(p)
            assert p.wait_for("Your name", 30), p.text()
            p.send(name + "\r")
            assert p.wait_for(f"· {name}", 30), p.text()
            return p

        anna = app("Anna")
        anna.send("o")
        assert anna.wait_for("Open the table"), anna.text()
        anna.send("\x1b[B\x1b[D\x1b[D")  # Rounds: 3 -> 2 -> 1
        anna.send("\x1b[B\x1b[D\x1b[D")  # Seats: 4 -> 3 -> 2
        assert anna.wait_for("Seats: 2") and "Rounds: 1" in anna.text(), anna.text()
        anna.send("\x1b[F\r")  # End, Enter: open it
        assert anna.wait_for("waiting for players"), anna.text()

        bo = app("Bo")
        assert bo.wait_for("Anna "), bo.text()
        bo.send("\x1b[B\r")  # the second table is Anna's
        assert bo.wait_for("The host starts the table"), bo.text()
        assert anna.wait_for("2. Bo"), anna.text()
        anna.send("s")
        assert anna.wait_for("Time left:") and bo.wait_for("Time left:"), anna.text() + bo.text()
        # First the player's own running total and place, then each opponent (issue 22 item 12).
        assert anna.text().splitlines()[0].split()[:2] == ["You", "Total"]
        assert "Bo " in anna.text().splitlines()[1] and "Anna " in bo.text().splitlines()[1]

        # Anna's hint move; Bo's screen changes in Anna's line only.
        anna.send("?")
        assert anna.wait_for("Hint: "), anna.text()
        bo.read(1.2)  # let a countdown tick pass
        before = bo.text().splitlines()
        n0 = len(bo.chunks)
        anna.send("\r")
        assert anna.wait_for("Moves: 1"), anna.text()
        assert bo.wait_for("Moves   1"), bo.text()
        after = bo.text().splitlines()
        assert after[3:22] == before[3:22]  # the table did not repaint
        # Everything Bo's terminal got since: Anna's progress line (only its changed cells: the
        # app sends no cell the terminal already shows) and any countdown tick.
        update = [c for c in bo.chunks[n0:] if c]
        print("progress update bytes:", [len(c) for c in update])
        assert update and max(len(c) for c in update) <= 300, [len(c) for c in update]

        for p in (bo, anna):
            p.send("g")
            assert p.wait_for("Give up this round?"), p.text()
            p.send("y")
        for p in (anna, bo):
            assert p.wait_for("Final ranking", 30), p.text()
            assert "Anna" in p.text() and "Bo" in p.text() and "deal " in p.text()
    finally:
        for p in apps:
            os.write(p.fd, b"\x11")
            p.exit_status()
        stop_process(server)


@pytest.mark.slow
def test_a_newcomer_races_house_bots_within_30_seconds_of_starting_the_app(tmp_path):
    """SPEC §13 (issue 20 item 9): from a fresh data dir, the start screen's p, a name, "play
    here", Enter on the standard table: a race against house bots within 30 s of the start."""
    env = {"SPIDER_DATA_DIR": str(tmp_path / "fresh"), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    t0 = time.monotonic()
    p = CountingPty(["--server", "ws://127.0.0.1:9"], 80, 24, env)  # nothing listens there
    try:
        assert p.wait_for("Your name", 30), p.text()
        p.send("Anna\r")
        assert p.wait_for("Play here instead", 30), p.text()
        p.send("y")
        assert p.wait_for("standard", 30), p.text()
        p.send("\r")
        assert p.wait_for("Time left:", 30), p.text()
        seconds = time.monotonic() - t0
        assert p.wait_for("House bot 3", 5), p.text()
        print(f"a race against house bots {seconds:.1f} s after the app started")
        assert seconds <= 30
    finally:
        os.write(p.fd, b"\x11")
        p.exit_status()
    assert (tmp_path / "fresh" / "palast-here.sqlite3").stat().st_size > 0  # its database is in the data dir
