"""The bytes on the wire: what the app writes to the terminal, without what the terminal already has.

Textual writes every frame as "chops": one per widget that crosses a screen line, each with its
own cursor move, its own full SGR sequence and a reset after it (``ESC[10;30H ESC[38;2;224;224;
224;48;2;31;58;46m`` + 9 spaces + ``ESC[0m``).  A row of ten empty columns costs ~470 bytes that
way, and a freshly mounted widget is painted twice.  Over SSH those bytes are the lag a player
feels (SPEC §11: a move ≤ 1 KB, opening or closing a dialog ≤ 8 KB).

``Wire`` keeps a model of the terminal's cells and rewrites each write to the fewest bytes that
give the same screen:

- a cell that already shows the same character in the same look is not written again (so a
  widget painted twice, or a row rewritten unchanged, costs nothing the second time);
  a blank cell looks the same whatever its foreground colour or boldness;
- the SGR state carries over between cells: only the attributes that change are sent
  (an attribute switched off by its own code, a reset only when that is shorter);
- the cursor moves only when the next written cell is not where the cursor already is
  (a short forward skip or ``CR LF`` when shorter than a full move).

Anything else (alternate screen, clears, unknown sequences) passes through and makes the model
forget what it knew, so the next frame is written whole.  A resize or a return to application
mode does the same (``forget``).  After each write the SGR state is reset and the cursor put where
Textual wants it.  Pure: ``Wire.feed(str) -> str``; ``wire_driver`` puts it in front of a
Textual driver's ``write``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.cells import cell_len

TOKEN = re.compile(
    r"\x1b\[([0-9;:?<>=]*)([ -/]*)([@-~])"  # CSI: params, intermediates, final
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[^\[\]]?"  # other escapes
    r"|[\x00-\x1f\x7f]"  # C0 controls (\r, \n, ...)
    r"|[^\x00-\x1f\x7f\x1b]+"  # text
)
SCREEN_SWITCH = {"?1049", "?47", "?1047"}
# Attributes that show on a blank cell: background, reverse, underline, strike, overline, frame.
SHOWS_ON_BLANK = {"bg", "7", "4", "21", "9", "53", "51", "52"}


@lru_cache(4096)
def parse_sgr(params: str, state: tuple) -> tuple:
    """The SGR state after ``ESC[params m`` applied to ``state`` (a sorted tuple of (key, value)).
    Keys: "fg", "bg" (their parameter text) and attribute numbers as strings.  An unknown
    parameter makes the state ``(("raw", params),)``: only equal to itself."""
    d = dict(state)
    if "raw" in d:
        d = {}
    parts = params.replace(":", ";").split(";") if params else ["0"]
    i = 0
    while i < len(parts):
        p = parts[i]
        if p in ("", "0"):
            d = {}
        elif p in ("38", "48"):
            key = "fg" if p == "38" else "bg"
            if i + 1 < len(parts) and parts[i + 1] == "5" and i + 2 < len(parts):
                d[key] = f"{p};5;{parts[i + 2]}"
                i += 2
            elif i + 1 < len(parts) and parts[i + 1] == "2" and i + 4 < len(parts):
                d[key] = f"{p};2;{';'.join(parts[i + 2:i + 5])}"
                i += 4
            else:
                return (("raw", params),)
        elif p.isdigit() and (30 <= int(p) <= 37 or 90 <= int(p) <= 97):
            d["fg"] = p
        elif p.isdigit() and (40 <= int(p) <= 47 or 100 <= int(p) <= 107):
            d["bg"] = p
        elif p == "39":
            d.pop("fg", None)
        elif p == "49":
            d.pop("bg", None)
        elif p in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53"):
            d[p] = p
        elif p == "22":
            d.pop("1", None), d.pop("2", None)
        elif p in ("23", "24", "25", "27", "28", "29"):
            d.pop(p[1], None)
            if p == "24":
                d.pop("21", None)
        else:
            return (("raw", params),)
        i += 1
    return tuple(sorted(d.items()))


@lru_cache(1024)
def narrow(ch: str) -> bool:
    """Does ``ch`` take exactly one cell (as Textual lays it out)?"""
    return cell_len(ch) == 1


@lru_cache(4096)
def blank_look(state: tuple) -> tuple:
    """What a blank cell in ``state`` looks like (its foreground and boldness don't show,
    unless it is reversed: then the foreground is what shows)."""
    if any(k == "7" for k, _ in state):
        return state
    return tuple(kv for kv in state if kv[0] in SHOWS_ON_BLANK or kv[0] == "raw")


# What switches one attribute off without a reset (a colour is switched off by a reset: no
# default-colour code is ever sent, so NO_COLOR output never holds a colour code).
OFF = {"1": "22", "2": "22", "3": "23", "4": "24", "21": "24", "5": "25", "7": "27", "8": "28", "9": "29"}


@lru_cache(4096)
def sgr_change(old: tuple, new: tuple) -> str:
    """The shortest SGR sequence that turns ``old`` into ``new`` ("" when they are equal): the
    changes alone (an attribute switched off with its own code, ``22``, ``24``, ``39`` …) or
    a reset and the whole new state, whichever is shorter."""
    if old == new:
        return ""
    if not new:
        return "\x1b[0m"
    od, nd = dict(old), dict(new)
    if "raw" in nd:
        return f"\x1b[0;{nd['raw']}m"
    reset = "\x1b[0;" + ";".join(v for _, v in new) + "m"
    if "raw" in od:
        return reset
    offs: list[str] = []
    for k in od:
        if k not in nd:
            off = OFF.get(k)
            if off is None:
                return reset  # no code of its own (or one that switches off more than it)
            if off not in offs:
                offs.append(off)
    gone = {k for k in od if OFF.get(k) in offs}  # 22 switches off 1 and 2, 24 both underlines
    delta = "\x1b[" + ";".join(offs + [v for k, v in new if od.get(k) != v or k in gone]) + "m"
    return delta if len(delta) < len(reset) else reset


class Wire:
    """The terminal as the app has drawn it; ``feed`` rewrites one write to what changes it."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Know nothing about the screen (after a resize, a clear, a return to the app)."""
        # row -> what each cell shows (index col - 1): (character, look), None = unknown
        self.rows: dict[int, list[tuple[str, tuple] | None]] = {}
        self.real_pos: tuple[int, int] | None = None  # where the terminal's cursor is (1-based)
        self.real_sgr: tuple | None = None  # the terminal's SGR state (None: unknown)

    def feed(self, data: str) -> str:
        out: list[str] = []
        put = out.append
        row, col = self.real_pos or (1, 1)  # where Textual means to write next
        pos_known = self.real_pos is not None
        sgr: tuple = ()
        for m in TOKEN.finditer(data):
            token = m.group(0)
            final = m.group(3)
            if final is not None:  # CSI
                params, inter = m.group(1), m.group(2)
                private = params[:1] in ("?", "<", ">", "=")
                if final in "Hf" and not inter and not private:
                    nums = params.split(";") if params else []
                    row = int(nums[0]) if nums and nums[0] else 1
                    col = int(nums[1]) if len(nums) > 1 and nums[1] else 1
                    pos_known = True
                    continue
                if final == "m" and not inter and not private:
                    sgr = parse_sgr(params, sgr)
                    continue
                switch = final in "hl" and any("?" + q in SCREEN_SWITCH for q in params[1:].split(";"))
                if (private and not switch) or (final == "n" and not inter):
                    put(token)  # modes and queries: the cells stay as they are
                    continue
                pos_known = self.unknown(out, token)
                continue
            if token.startswith("\x1b]"):
                put(token)  # a title or the like
                continue
            if token == "\n":
                row += 1
                continue
            if token == "\r":
                col = 1
                continue
            if token[0] == "\x1b" or token < " " or token == "\x7f":
                pos_known = self.unknown(out, token)
                continue
            # text
            if not pos_known:
                self.flush_sgr(out, sgr)
                out.append(token)  # nowhere known to put it: as it came
                self.forget()
                continue
            if token.isascii() or all(map(narrow, token)):
                col = self.write_text(out, row, col, token, sgr)
                continue
            for ch in token:  # wide or zero-width characters: written as they are, not modelled
                width = cell_len(ch)
                self.cell_unknown(row, col, max(1, width))
                self.write_run(out, row, col, ch, sgr)
                if width == 0:
                    pos_known = self.unknown(out, "")
                    break
                col += width
        # Leave the terminal as Textual would: attributes off, the cursor where it asked.
        self.flush_sgr(out, ())
        if pos_known and self.real_pos != (row, col):
            put(f"\x1b[{row};{col}H")
            self.real_pos = (row, col)
        return "".join(out)

    def unknown(self, out: list[str], token: str) -> bool:
        """Pass ``token`` on as it is; from here on nothing is known about the screen."""
        self.flush_sgr(out, ())
        out.append(token)
        self.forget()
        return False

    def cell_unknown(self, row: int, col: int, width: int) -> None:
        line = self.rows.get(row)
        if line is not None:
            line[col - 1:col - 1 + width] = [None] * min(width, max(0, len(line) - col + 1))

    def write_text(self, out: list[str], row: int, col: int, text: str, look: tuple) -> int:
        """Text of one-cell characters at (row, col): write the runs of cells that change;
        returns the column after it."""
        line = self.rows.get(row)
        if line is None:
            line = self.rows[row] = []
        start, end = col - 1, col - 1 + len(text)
        if len(line) < end:
            line.extend([None] * (end - len(line)))
        blank = blank_look(look)
        keys = [(ch, blank) if ch == " " else (ch, look) for ch in text]
        old = line[start:end]
        if old == keys:
            return col + len(text)  # the terminal shows this already (a second paint)
        line[start:end] = keys
        if old.count(None) == len(old):  # nothing known there (a first frame): all of it
            self.write_run(out, row, col, text, look)
            return col + len(text)
        run = -1
        for k in range(len(keys)):
            if old[k] != keys[k]:
                if run < 0:
                    run = k
            elif run >= 0:
                self.write_run(out, row, col + run, text[run:k], look)
                run = -1
        if run >= 0:
            self.write_run(out, row, col + run, text[run:], look)
        return col + len(text)

    def write_run(self, out: list[str], row: int, col: int, text: str, look: tuple) -> None:
        """Write ``text`` at (row, col) in ``look``, moving and restyling only as needed."""
        pos = self.real_pos
        if pos != (row, col):
            if pos is not None and pos[0] == row and col > pos[1]:
                out.append(f"\x1b[{col - pos[1]}C" if col - pos[1] > 1 else "\x1b[C")
            elif pos is not None and col == 1 and row == pos[0] + 1:
                out.append("\r\n")
            else:
                out.append(f"\x1b[{row};{col}H")
        if not (text.isspace() and text.isascii() and self.real_sgr is not None
                and blank_look(self.real_sgr) == blank_look(look)):
            self.flush_sgr(out, look)  # (blanks show only their background: the current one will do)
        out.append(text)
        self.real_pos = (row, col + cell_len(text))

    def flush_sgr(self, out: list[str], look: tuple) -> None:
        if self.real_sgr is None:
            out.append("\x1b[0m" if not look else "\x1b[0;" + ";".join(v for _, v in look) + "m")
        else:
            out.append(sgr_change(self.real_sgr, look))
        self.real_sgr = look


def wire_driver(base: type, wire: Wire) -> type:
    """A subclass of the Textual driver class ``base`` whose writes go through ``wire``.  The app
    makes ``wire`` forget on every resize (``TerminalApp.on_resize``): the terminal may have
    cleared or reflowed its cells, and the repaint that follows must be written whole."""

    class WireDriver(base):  # type: ignore[valid-type, misc]
        def write(self, data: str) -> None:
            super().write(wire.feed(data))

        def start_application_mode(self) -> None:
            wire.forget()  # a new start, or back from a suspend: the screen may be anything
            super().start_application_mode()

    WireDriver.__name__ = WireDriver.__qualname__ = f"Wire{base.__name__}"
    return WireDriver
