"""``spider --describe`` in a real pty (SPEC §17): a whole 2-suit round played by typed commands,
every answer checked against the engine playing the same moves; the terminal gets plain lines only
(no escape sequence: nothing redraws, the cursor is never hidden); ``TERM=dumb`` starts it too."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from spider_tui.engine import Game
from spider_tui.engine.cards import RANK_CHARS, rank_of, suit_of
from spider_tui.engine.solve import solve

pytestmark = pytest.mark.pty

GLYPHS = "♠♥♦♣"
DEAL_NUMBER = 1


def words(card: int) -> str:
    return RANK_CHARS[rank_of(card) - 1].replace("T", "10") + GLYPHS[suit_of(card)]


class LinePty:
    """A spider in a pty, read as lines (the tty's echo of each typed line included)."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        pid, fd = pty.fork()
        if pid == 0:
            child_env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
            child_env.update(env)
            os.execve(sys.executable, [sys.executable, "-m", "spider_tui", *argv], child_env)
        self.pid, self.fd = pid, fd
        self.raw = b""
        self.lines: list[str] = []
        self._part = b""

    def _take(self, wait: float) -> bool:
        r, _, _ = select.select([self.fd], [], [], wait)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.raw += data
        self._part += data
        *done, self._part = self._part.split(b"\n")
        self.lines.extend(line.rstrip(b"\r").decode() for line in done)
        return True

    def lines_after(self, start: int, count: int, seconds: float = 60) -> list[str]:
        """Wait until ``count`` lines came after line ``start``; returns them."""
        end = time.monotonic() + seconds
        while len(self.lines) < start + count and time.monotonic() < end:
            if not self._take(0.1):
                break
        assert len(self.lines) >= start + count, f"waited for {count} lines, got {self.lines[start:]}"
        return self.lines[start:start + count]

    def command(self, text: str, answers: int = 1) -> list[str]:
        """Type ``text`` and Enter; the answer's lines (after the tty's echo of the line)."""
        start = len(self.lines)
        os.write(self.fd, text.encode() + b"\n")
        got = self.lines_after(start, 1 + answers)
        assert got[0] == text, f"the echo of {text!r}: {got[0]!r}"
        return got[1:]

    def wait_exit(self, seconds: float = 30) -> int:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._take(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        raise AssertionError("spider --describe did not end")


def env_for(tmp_path, **extra: str) -> dict[str, str]:
    return {"SPIDER_DATA_DIR": str(tmp_path), "TERM": "xterm-256color", "LANG": "C.UTF-8", **extra}


def test_a_whole_two_suit_round_played_by_typed_commands(tmp_path):
    solution = solve(Game.new(DEAL_NUMBER, suits=2), max_nodes=2_000_000)
    assert solution.result == "winnable" and solution.moves
    mirror = Game.new(DEAL_NUMBER, suits=2)  # the same moves on the engine: what each answer must say

    p = LinePty(["--describe", "--deal", str(DEAL_NUMBER), "--suits", "2"], env_for(tmp_path))
    opening = p.lines_after(0, 12)
    assert opening[0] == f"Deal {DEAL_NUMBER}, 2 suits. Type h for help."
    for col in range(10):
        card = mirror.columns[col][-1]
        assert opening[1 + col] == f"Column {col + 1}: {words(card)}; {mirror.down[col]} face down, 1 face up."
    assert opening[11] == "Stock: 5 deals left. Runs done: 0. Moves: 0."
    assert p.command("h", answers=6)[0] == "Commands, each ended by Enter:"

    for i, text in enumerate(solution.moves):
        if i == 3:  # along the way: a refused move and an unreadable line change nothing
            assert p.command("11>1") == ["Columns are numbered 1 to 10."]
            assert p.command("fly") == ["Can't read 'fly': write a move like 3>7, 3>7:2, deal or joker>4."]
        if i == 5:
            [hint] = p.command("?")
            expected = mirror.hint()
            assert hint.startswith("Hint: ")
            if expected is not None and not expected.is_deal:
                assert f"from column {expected.source + 1} " in hint
        move = mirror.resolve(text)
        if not move.is_deal:
            lead = mirror.columns[move.source][-move.count]
            onto = list(mirror.columns[move.target])
        played = mirror.play(move)
        [line] = p.command("d" if move.is_deal else text)
        if move.is_deal:
            assert line.startswith("Dealt a row: " + " ".join(words(c) for c in played.dealt) + ".")
            assert f" {mirror.deals_left} deal" in line
        else:
            where = (f"onto {words(onto[-1])} in column {move.target + 1}." if onto
                     else f"into the empty column {move.target + 1}.")
            assert line.startswith(words(lead)), line
            assert f"from column {move.source + 1} {where}" in line, line
        for col, suit in played.completed:
            assert f"A run of {GLYPHS[suit]} is complete in column {col + 1} and leaves the table." in line
        for col, card in played.turned_up:
            assert f"Turned up {words(card)} in column {col + 1}." in line
        if i == 10:
            c = move.target if not move.is_deal else 0
            [col_line] = p.command(f"c {c + 1}")
            up = " ".join(words(x) for x in mirror.columns[c][mirror.down[c]:])
            assert col_line.endswith(f"{up}.")
            assert p.command("l") == [line]
    assert mirror.won
    assert "Won: " in line
    [stock] = p.command("s")
    assert stock.startswith("Stock: 0 deals left. Runs done: 8 (")
    assert p.command("q") == ["Goodbye."]
    assert p.wait_exit() == 0
    # Plain lines only: no escape sequence at all (no redraw, no hidden cursor, no colour).
    assert b"\x1b" not in p.raw
    stats = json.loads(subprocess.run([sys.executable, "-m", "spider_tui", "stats", "--json", "--data-dir",
                                       str(tmp_path)], capture_output=True, text=True, check=True).stdout)
    assert stats["suits"]["2"]["played"] == 1 and stats["suits"]["2"]["won"] == 1


def test_term_dumb_starts_the_line_front_end_and_a_round_is_kept(tmp_path):
    p = LinePty(["--deal", "42", "--suits", "2"], env_for(tmp_path, TERM="dumb"))
    assert p.lines_after(0, 1)[0] == "Deal 42, 2 suits. Type h for help."
    p.lines_after(0, 12)
    [line] = p.command("d")
    assert line.startswith("Dealt a row: ")
    assert p.command("q") == ["The round is kept: spider --describe continues it."]
    assert p.wait_exit() == 0
    assert b"\x1b" not in p.raw
    # Started again without a deal: the kept round continues.
    p = LinePty(["--describe"], env_for(tmp_path))
    first = p.lines_after(0, 2)
    assert first == ["Continuing the unfinished round.", "Deal 42, 2 suits. 1 move played. Type h for help."]
    p.lines_after(0, 13)
    assert re.fullmatch(r"Stock: 4 deals left\. Runs done: 0\. Moves: 1\.", p.command("s")[0])
    os.write(p.fd, b"\x04")  # Ctrl+D: the end of input quits too
    assert p.wait_exit() == 0
