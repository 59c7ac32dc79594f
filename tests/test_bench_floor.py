"""The byte floor of SPEC §11 (bench/floor.py) on fixed screens: no timing, only arithmetic."""

from __future__ import annotations

import sys
from pathlib import Path

import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from floor import LOOK, floor_bytes, pyte_cells, runs, sgr  # noqa: E402

GREEN = ("e0e0e0", "1f3a2e", False, False, False, False, False)
RED = ("ff0000", "1f3a2e", True, False, False, False, False)


def row(text: str, look=GREEN) -> list:
    return [(ch, look) for ch in text]


def test_same_screens_need_nothing():
    s = [row("abc"), row("def")]
    assert floor_bytes(s, s) == 0 and runs(s, s) == []


def test_one_run_is_a_cursor_move_one_colour_and_its_characters():
    before = [row("          "), row("  9♠      ")]
    after = [row("          "), row("  8♠      ")]
    assert runs(before, after) == [(1, 2, 3)]
    # ESC[2;3H (6) + ESC[38;2;224;224;224;48;2;31;58;46m + "8"
    assert sgr(GREEN) == "\x1b[38;2;224;224;224;48;2;31;58;46m"
    assert floor_bytes(before, after) == 6 + len(sgr(GREEN)) + 1


def test_a_colour_change_inside_a_run_costs_another_sgr_and_a_gap_a_shorter_move():
    before = [row("aaaaaaaaaaaaaaaa")]
    after = [row("ab", GREEN) + [("♥", RED)] + row("aaaaaaaaa") + row("xy") + row("a")]
    # run 1: columns 1-2 ("b", "♥"); run 2: columns 12-13 ("xy"), 9 cells after run 1's end
    assert runs(before, after) == [(0, 1, 3), (0, 12, 14)]
    first = len("\x1b[1;2H") + len(sgr(GREEN)) + 1 + len(sgr(RED)) + len("♥".encode())
    second = len("\x1b[9C") + len(sgr(GREEN)) + 2
    assert sgr(RED) == "\x1b[1;38;2;255;0;0;48;2;31;58;46m"
    assert floor_bytes(before, after) == first + second


def test_a_changed_look_alone_is_a_changed_cell():
    before = [row("ab")]
    after = [[("a", GREEN), ("b", RED)]]
    assert floor_bytes(before, after) == len("\x1b[1;2H") + len(sgr(RED)) + 1
    assert sgr(LOOK) == "\x1b[m"


def test_the_floor_of_two_pyte_screens_is_never_more_than_a_stream_that_draws_the_change():
    """What a terminal really got (a stream written the plain way) is at least the floor."""
    a, b = pyte.Screen(20, 3), pyte.Screen(20, 3)
    for screen in (a, b):
        pyte.ByteStream(screen).feed("\x1b[38;2;224;224;224;48;2;31;58;46mhello world".encode())
    change = "\x1b[1;7H\x1b[1;38;2;255;0;0;48;2;31;58;46mWORLD".encode()
    pyte.ByteStream(b).feed(change)
    before, after = pyte_cells(a), pyte_cells(b)
    assert runs(before, after) == [(0, 6, 11)]
    assert floor_bytes(before, after) == len(change)
