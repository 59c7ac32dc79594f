"""ui/wire.py: the rewritten output gives the same screen as Textual's, in fewer bytes."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from rich.cells import cell_len

from spider_tui.ui.wire import Wire, parse_sgr, sgr_change

W, H = 30, 8

STYLES = [
    "",
    "1",
    "2",
    "7",
    "4",
    "38;2;224;224;224;48;2;31;58;46",
    "48;2;31;58;46",
    "1;38;2;10;10;10;48;2;240;240;240",
    "38;2;200;30;30;48;2;240;240;240",
    "38;5;244",
    "31;42",
    "1;4;38;2;1;2;3",
    "7;38;2;200;30;30",
    "7;38;2;10;10;10;48;2;31;58;46",
]


def cell_look(screen: pyte.Screen, row: int, col: int) -> tuple:
    """What a player sees in a cell (a blank shows its background, reverse and underline only)."""
    c = screen.buffer[row][col]
    if c.data == " ":
        return (" ", c.bg if not c.reverse else c.fg, c.reverse, c.underscore, c.strikethrough)
    return (c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.reverse, c.strikethrough)


def show(*writes: str) -> pyte.Screen:
    screen = pyte.Screen(W, H)
    stream = pyte.Stream(screen)
    for w in writes:
        stream.feed(w)
    return screen


def same_screen(a: pyte.Screen, b: pyte.Screen) -> bool:
    return all(cell_look(a, r, c) == cell_look(b, r, c) for r in range(H) for c in range(W)) and (
        (a.cursor.x, a.cursor.y) == (b.cursor.x, b.cursor.y))


# A write as Textual makes it: chops of (move, SGR, text, reset), rows joined by \r\n, and a
# final cursor move.
def chops(alphabet: str):
    return st.tuples(st.integers(1, H), st.integers(1, W), st.sampled_from(STYLES),
                     st.text(alphabet=alphabet, min_size=1, max_size=12))


@st.composite
def frame(draw, one_chop_a_row: bool = False) -> str:
    """A write; with ``one_chop_a_row`` no cell is written twice in it, and no wide character
    (those are written every time, not modelled)."""
    parts = []
    chop = chops(" ab♠♥10░│" if one_chop_a_row else " ab♠♥10░│漢")
    chops_ = st.lists(chop, min_size=1, max_size=12, unique_by=(lambda c: c[0]) if one_chop_a_row else None)
    for row, col, style, text in draw(chops_):
        while cell_len(text) > W - col + 1:  # Textual never writes past the right edge
            text = text[:-1]
        if not text:
            continue
        parts.append(f"\x1b[{row};{col}H\x1b[{style}m{text}\x1b[0m")
        if draw(st.booleans()) and row < H:
            parts.append("\r\n")
    y, x = draw(st.integers(1, H)), draw(st.integers(1, W))
    parts.append(f"\x1b[{y};{x}H")
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(st.lists(frame(), min_size=1, max_size=6))
def test_the_rewritten_writes_give_the_same_screen(frames):
    wire = Wire()
    start = "\x1b[2J\x1b[H"  # both terminals start blank, the wire knowing nothing
    assert same_screen(show(start, *frames), show(start, *(wire.feed(f) for f in frames)))


@settings(max_examples=100, deadline=None)
@given(frame(one_chop_a_row=True))
def test_a_frame_written_twice_costs_nothing_the_second_time(f):
    wire = Wire()
    wire.feed(f)
    again = wire.feed(f)
    # At most the closing cursor move remains (the cursor ends where the frame put it).
    assert again == "" or (again.startswith("\x1b[") and again.endswith("H") and len(again) <= 8), repr(again)


def test_chops_of_one_style_become_one_run():
    # Textual's row of empty columns: a move, a full SGR and a reset around every widget's cells.
    row = "".join(f"\x1b[3;{c}H\x1b[38;2;224;224;224;48;2;31;58;46m         \x1b[0m\x1b[3;{c + 9}H\x1b[48;2;31;58;46m \x1b[0m"
                  for c in range(1, 100, 10))
    out = Wire().feed(row + "\x1b[1;1H")
    assert out.count("\x1b[3;") == 1 and out.count("48;2;31;58;46") == 1, repr(out)
    assert len(out) < len(row) / 5


def test_an_unknown_sequence_makes_it_forget_and_write_everything_again():
    wire = Wire()
    frame_ = "\x1b[1;1H\x1b[1mab\x1b[0m"
    wire.feed(frame_)
    wire.feed("\x1b[2J")  # a clear: the terminal no longer shows "ab"
    assert "ab" in wire.feed(frame_)


def test_after_a_write_attributes_are_off():
    out = Wire().feed("\x1b[1;1H\x1b[1;38;2;1;2;3mx")
    assert out.endswith("\x1b[0m") or out.endswith("H")
    assert show(out + "y").buffer[0][1].bold is False


def test_sgr_changes_send_only_what_differs_and_never_a_default_colour():
    a = parse_sgr("38;2;1;2;3;48;2;4;5;6", ())
    b = parse_sgr("38;2;9;9;9;48;2;4;5;6", ())
    assert sgr_change(a, b) == "\x1b[38;2;9;9;9m"
    # Switching the background off: a reset and the rest, not 49 (NO_COLOR output stays free of
    # colour codes because no colour is ever set there).
    c = parse_sgr("38;2;9;9;9", ())
    assert sgr_change(b, c) == "\x1b[0;38;2;9;9;9m"
    assert sgr_change(parse_sgr("1", ()), parse_sgr("1;7", ())) == "\x1b[7m"


def test_an_attribute_is_switched_off_by_its_own_code_when_that_is_shorter_than_a_reset():
    """Issue 32 item 2: leaving a bold, underlined card for a plain one sent a reset and the
    whole truecolor state again (``ESC[0;48;2;239;235;224;38;2;17;17;17m``, 36 B)."""
    held = parse_sgr("1;4;38;2;17;17;17;48;2;239;235;224", ())
    plain = parse_sgr("38;2;17;17;17;48;2;239;235;224", ())
    assert sgr_change(held, plain) == "\x1b[22;24m"
    assert sgr_change(parse_sgr("1;2;38;2;1;2;3", ()), parse_sgr("2;38;2;1;2;3", ())) == "\x1b[22;2m"
    assert sgr_change(parse_sgr("1;7", ()), parse_sgr("1", ())) == "\x1b[27m"
    # where the reset is shorter, the reset
    assert sgr_change(parse_sgr("1;3;4;7;9;31", ()), parse_sgr("31", ())) == "\x1b[0;31m"
    for old, new in ((held, plain), (plain, held), (parse_sgr("1;2;4;21", ()), parse_sgr("2;21;31", ()))):
        assert parse_sgr(sgr_change(old, new)[2:-1], old) == new


# Issue 22 item 1: whole screens as Textual paints them, through size changes, a text that
# changes within its line, a dialog that opens over the table and closes, and a notice that
# comes and goes.  After every write the wire's screen is the one Textual painted.
SIZES = [(30, 8), (24, 6), (40, 10)]


def paint(cells: dict, w: int, h: int, rows) -> str:
    """Textual's write for ``rows`` of the model ``cells`` ({(row, col): (char, style)}):
    one chop per run of one style, each with its own move and reset."""
    out = []
    for r in rows:
        c = 1
        while c <= w:
            ch, style = cells.get((r, c), (" ", ""))
            run, c2 = ch, c + 1
            while c2 <= w and cells.get((r, c2), (" ", ""))[1] == style:
                run += cells.get((r, c2), (" ", ""))[0]
                c2 += 1
            out.append(f"\x1b[{r};{c}H\x1b[{style}m{run}\x1b[0m" if style else f"\x1b[{r};{c}H{run}")
            c = c2
    return "".join(out)


def put_text(cells: dict, w: int, r: int, c: int, text: str, style: str, width: int) -> None:
    """A widget of ``width`` cells at (r, c) showing ``text`` (padded or cut, as Textual does)."""
    text = (text + " " * width)[:max(0, min(width, w - c + 1))]
    for i, ch in enumerate(text):
        cells[(r, c + i)] = (ch, style)


op = st.one_of(
    st.tuples(st.just("size"), st.sampled_from(SIZES)),
    st.tuples(st.just("line"), st.integers(1, 10), st.integers(1, 20), st.integers(3, 20),
              st.text(alphabet=" ab·♠♥10Deal", max_size=20), st.sampled_from(STYLES)),
    st.tuples(st.just("dialog"), st.integers(1, 6), st.integers(1, 10), st.integers(3, 20), st.integers(3, 6),
              st.text(alphabet=" Ask?yn", max_size=12)),
    st.tuples(st.just("notice"), st.text(alphabet=" Yes:can▌", min_size=1, max_size=14)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(op, min_size=1, max_size=10))
def test_whole_screens_through_resizes_line_changes_dialogs_and_notices(ops):
    w, h = 30, 8
    cells: dict = {}
    wire = Wire()
    textual, seen = pyte.Screen(w, h), pyte.Screen(w, h)
    ts, ss = pyte.Stream(textual), pyte.Stream(seen)

    def write(data: str) -> None:
        ts.feed(data)
        ss.feed(wire.feed(data))
        for r in range(h):
            for c in range(w):
                assert cell_look(textual, r, c) == cell_look(seen, r, c), (r, c, textual.display, seen.display)

    write("\x1b[2J" + paint(cells, w, h, range(1, h + 1)) + "\x1b[1;1H")
    for o in ops:
        if o[0] == "size":
            w, h = o[1]
            cells = {k: v for k, v in cells.items() if k[0] <= h and k[1] <= w}
            textual.resize(h, w)
            seen.resize(h, w)
            wire.forget()  # the app's on_resize
            write(paint(cells, w, h, range(1, h + 1)) + "\x1b[1;1H")
        elif o[0] == "line":
            _, r, c, width, text, style = o
            if r > h or c > w:
                continue
            put_text(cells, w, r, c, text, style, width)
            write(paint(cells, w, h, [r]) + f"\x1b[{r};{c}H")
        elif o[0] == "dialog":
            _, r, c, bw, bh, text = o
            if r + bh - 1 > h or c + bw - 1 > w:
                continue
            under = dict(cells)
            box = dict(cells)
            for i in range(bh):
                edge = "╭╰"[i == bh - 1] if i in (0, bh - 1) else "│"
                put_text(box, w, r + i, c, edge + ("─" if edge != "│" else " ") * (bw - 2), "1;38;2;254;166;43;48;2;30;30;30", bw)
            put_text(box, w, r + 1, c + 1, text, "38;2;224;224;224;48;2;30;30;30", bw - 2)
            rows = range(r, r + bh)
            write(paint(box, w, h, rows) + "\x1b[1;1H")
            write(paint(under, w, h, rows) + "\x1b[1;1H")  # closed: the table again
        else:
            text = o[1]
            c = max(1, w - len(text) - 2)
            under = dict(cells)
            note = dict(cells)
            put_text(note, w, h, c, "▌ " + text, "38;2;78;191;113;48;2;52;63;73", w - c + 1)
            write(paint(note, w, h, [h]) + "\x1b[1;1H")
            write(paint(under, w, h, [h]) + "\x1b[1;1H")
