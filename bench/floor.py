"""The byte floor of SPEC §11: what a terminal needs to go from one screen to another.

For every run of cells that differ between the two screens (character or look) on a row: a
cursor move to its first cell (``ESC[r;cH``, or ``ESC[nC`` from the end of the run before on
the same row when that is shorter), the colours and attributes for it (one SGR per change of
look inside the run, as from a reset: ``ESC[1;38;2;r;g;b;48;2;r;g;bm``) and the characters
(UTF-8).  Nothing else: no reset at the end, no cursor hiding.  A screen is a list of rows, a
row a list of cells ``(char, look)``; a look is ``(fg, bg, bold, italics, underscore,
strikethrough, reverse)`` with colours as pyte gives them (``"default"``, a name such as
``"red"``, or six hex digits).

    >>> a = [[("x", LOOK), (" ", LOOK)]]
    >>> floor_bytes(a, [[("y", LOOK), (" ", LOOK)]])  # ESC[1;1H (6) + ESC[m (3) + "y"
    10
"""

from __future__ import annotations

from collections.abc import Sequence

Look = tuple
Cell = tuple[str, Look]
LOOK: Look = ("default", "default", False, False, False, False, False)

_NAMED = {"black": 0, "red": 1, "green": 2, "brown": 3, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7}


def _colour(value: str, base: int) -> list[str]:
    """SGR parameters for a pyte colour (base 30: foreground, 40: background)."""
    if value == "default":
        return []
    if len(value) == 6:
        try:
            r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
        except ValueError:
            return []
        return [str(base + 8), "2", str(r), str(g), str(b)]
    name = value.removeprefix("bright")
    if name in _NAMED:
        return [str(base + _NAMED[name] + (60 if value.startswith("bright") else 0))]
    return []


def sgr(look: Look) -> str:
    """The SGR sequence that sets ``look`` from a reset."""
    fg, bg, bold, italics, underscore, strike, reverse = look[:7]
    params = [code for on, code in ((bold, "1"), (italics, "3"), (underscore, "4"), (reverse, "7"),
                                    (strike, "9")) if on]
    params += _colour(fg, 30) + _colour(bg, 40)
    return f"\x1b[{';'.join(params)}m"


def runs(before: Sequence[Sequence[Cell]], after: Sequence[Sequence[Cell]]) -> list[tuple[int, int, int]]:
    """The runs of changed cells: (row, first column, end column), 0-based, end exclusive."""
    out = []
    for y, (old, new) in enumerate(zip(before, after)):
        x, width = 0, len(new)
        while x < width:
            if x < len(old) and old[x] == new[x]:
                x += 1
                continue
            start = x
            while x < width and not (x < len(old) and old[x] == new[x]):
                x += 1
            out.append((y, start, x))
    return out


def floor_bytes(before: Sequence[Sequence[Cell]], after: Sequence[Sequence[Cell]]) -> int:
    """The fewest bytes (as defined above) that turn screen ``before`` into ``after``."""
    total = 0
    last_row, last_end = -1, -1
    for y, start, end in runs(before, after):
        move = len(f"\x1b[{y + 1};{start + 1}H")
        if y == last_row:
            move = min(move, len(f"\x1b[{start - last_end}C"))
        total += move
        look = None
        for x in range(start, end):
            char, cell_look = after[y][x]
            if cell_look != look:
                total += len(sgr(cell_look))
                look = cell_look
            total += len(char.encode("utf-8"))
        last_row, last_end = y, end
    return total


def pyte_cells(screen) -> list[list[Cell]]:
    """A pyte screen as rows of cells (wide characters' empty second cells included)."""
    out = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        out.append([(c.data, (c.fg, c.bg, c.bold, c.italics, c.underscore, c.strikethrough, c.reverse))
                    for c in (line[x] for x in range(screen.columns))])
    return out
