"""A Palast race with ``spider --describe`` (SPEC §17, §13): two line front ends in two real ptys
on a real ``spider server``.  Anna opens a 1-round table, Bo joins it, Anna starts; each move is
said once the server has told the card it turned up (never ``??``), a read-out shows it, both give
up, and both hear the round's standings and the final ranking.  Plain lines only."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.test_pty_describe import LinePty, env_for
from tests.waiting import stop_process

from .test_pty_race import free_port

pytestmark = pytest.mark.pty


def wait_line(p: LinePty, pattern: str, start: int = 0, seconds: float = 60) -> tuple[int, str]:
    """The first line from ``start`` on that matches ``pattern``: (its index, the line)."""
    import time

    rx = re.compile(pattern)
    end = time.monotonic() + seconds
    while True:
        for i in range(start, len(p.lines)):
            if rx.search(p.lines[i]):
                return i, p.lines[i]
        if time.monotonic() > end:
            raise AssertionError(f"no line like {pattern!r}; got:\n" + "\n".join(p.lines[start:]))
        p._take(0.1)


def send(p: LinePty, text: str) -> int:
    """Type a line; the index the answer's lines start from (after the echo)."""
    import os

    start = len(p.lines)
    os.write(p.fd, text.encode() + b"\n")
    i, _ = wait_line(p, "^" + re.escape(text) + "$", start)
    return i + 1


def test_a_palast_race_played_by_typed_commands(tmp_path):
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "spider_tui", "server", "--port", str(port),
                               "--data-dir", str(tmp_path / "server")],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    players: list[LinePty] = []
    try:
        assert "listening" in server.stdout.readline().decode()

        def player(name: str) -> LinePty:
            p = LinePty(["--describe", "--server", url], env_for(tmp_path / name))
            players.append(p)
            wait_line(p, "^The name you play under at this Palast")
            send(p, name)
            wait_line(p, rf"^At the Palast {re.escape(url)} as {name}\. Type h for help")
            return p

        anna = player("Anna")
        at = send(anna, "o 1 1")
        _, seat = wait_line(anna, r"^Table (\d+): Anna seated of 4\. Type s to start it\.$", at)
        table = re.search(r"Table (\d+)", seat).group(1)
        at = send(anna, "o 9")
        assert wait_line(anna, r".", at)[1] == "Suits are 1, 2 or 4; rounds 1 to 10."

        bo = player("Bo")
        at = send(bo, "l")
        wait_line(bo, rf"^Table {table}: 1 suit, 1 round, classic, 1 of 4 seated, waiting\.$", at)
        at = send(bo, f"j {table}")
        wait_line(bo, rf"^Table {table}: Anna, Bo seated of 4\.$", at)
        wait_line(anna, rf"^Table {table}: Anna, Bo seated of 4\. Type s to start it\.$")

        at = send(anna, "s")
        begins, _ = wait_line(anna, r"^Round 1 of 1 begins: \d+ minutes\.$", at)
        wait_line(bo, r"^Round 1 of 1 begins")
        board = [wait_line(anna, rf"^Column {n}: ", begins)[1] for n in range(1, 11)]
        assert all(re.fullmatch(r"Column \d+: (10|[2-9AJQK])♠; \d face down, 1 face up\.", b) for b in board), board

        for _ in range(4):  # the hint's moves, each said with the card it turned up
            at = send(anna, "?")
            _, hint = wait_line(anna, r"^Hint: ", at)
            m = re.search(r"from column (\d+) onto .* in column (\d+)\.$", hint)
            if m is None:
                break  # a deal or no move: enough moves were played
            source, target = m.groups()
            at = send(anna, f"{source}>{target}")
            _, said = wait_line(anna, rf"from column {source} onto ", at)
            assert "??" not in said, said
            turned = re.search(rf"Turned up ((?:10|[2-9AJQK])♠) in column {source}\.", said)
            if turned:
                at = send(anna, f"c {source}")
                _, column = wait_line(anna, rf"^Column {source}: ", at)
                assert column.endswith(f"{turned.group(1)}."), column
        at = send(anna, "s")
        wait_line(anna, r"^Stock: 5 deals left\. Runs done: 0\. Moves: [1-4]\.$", at)
        at = send(anna, "p")
        wait_line(anna, r"^Bo: 0 points, 0 runs, 0 moves, playing\.$", at)

        send(bo, "g")
        send(anna, "g")
        for p in (anna, bo):
            over, _ = wait_line(p, r"^Round 1 is over\.$")
            wait_line(p, r"^Anna: -?\d+ points this round, -?\d+ in all, \d+ moves\.$", over)
            wait_line(p, r"^The table is over\.$", over)
            wait_line(p, r"^[12]\. (Anna|Bo), -?\d+ points\.$", over)
        print("\nAnna's terminal:\n" + "\n".join(anna.lines))
        for p in (anna, bo):
            at = send(p, "q")
            wait_line(p, r"^Goodbye", at)
            assert p.wait_exit() == 0
            assert b"\x1b" not in p.raw  # plain lines: nothing redraws
    finally:
        for p in players:
            try:
                p.wait_exit(1)
            except (AssertionError, OSError, ChildProcessError):
                pass
        stop_process(server)
