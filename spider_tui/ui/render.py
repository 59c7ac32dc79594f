"""Drawing a column as text: pure functions (Rich Text only), tested without a terminal.

A column is drawn top to bottom: its number, one line for the face-down cards with their
count, one line per face-up card, and the exposed card whole (up to three lines).  When a
column is taller than the space, the face-up cards above the movable group are compressed
into one ``⋮ n`` line; the movable group (every card that can be selected) and the exposed
card are never hidden.  ``ColumnPicture.rows`` maps each screen row to a card index so a
click lands on the card that is drawn there.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text

from spider_tui.engine import Game, Move, rank_of, suit_of
from spider_tui.engine.cards import UNKNOWN, UNKNOWN_TEXT
from spider_tui.i18n import _
from spider_tui.table import ColumnState
from spider_tui.ui.colours import CLOTH, Palette

__all__ = ["ColumnPicture", "ColumnState", "Look", "draw_column"]

UNICODE_SUITS = "♠♥♦♣"
ASCII_SUITS = "SHDC"
RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


UNICODE_MARKS = {"cursor": "›", "held": "▲", "target": "▶", "hint": "?", "hint_to": "◁", "more": "⋮", "back": "░", "landed": "•",
                 "sep": "·", "slot": "·", "check": "✓", "times": "×", "dash": "—"}
ASCII_MARKS = {"cursor": "+", "held": "^", "target": ">", "hint": "?", "hint_to": "<", "more": ":", "back": "#", "landed": "*",
               "sep": "-", "slot": ".", "check": "*", "times": "x", "dash": "-"}
# Any other text shown in ASCII mode (status lines with suit glyphs, names) goes through this.
_TO_ASCII = str.maketrans({**{u: a for u, a in zip(UNICODE_SUITS, ASCII_SUITS)},
                           **{UNICODE_MARKS[k]: ASCII_MARKS[k] for k in UNICODE_MARKS}, "…": "..."})


class Look(NamedTuple):
    """How cards are drawn: glyphs and colours.  Every glyph the table draws is here, with its
    ASCII form (``--ascii``, the Linux console, a non-UTF-8 locale)."""

    ascii: bool = False
    four_color: bool = False
    color: bool = True

    @property
    def suits(self) -> str:
        return ASCII_SUITS if self.ascii else UNICODE_SUITS

    @property
    def marks(self) -> dict[str, str]:
        return ASCII_MARKS if self.ascii else UNICODE_MARKS

    def text(self, s: str) -> str:
        """``s`` as this look can draw it: in ASCII mode known glyphs become ASCII, others ``?``."""
        if not self.ascii:
            return s
        return s.translate(_TO_ASCII).encode("ascii", "replace").decode("ascii")

    palette: Palette = CLOTH

    def suit_color(self, suit: int) -> str:
        return self.palette.suit(suit, self.four_color)

    @property
    def dim_style(self) -> Style:
        """The table behind a dialog: every card in one muted colour on the cloth (one style for
        the whole column, so dimming and undimming cost few bytes)."""
        return Style(color=self.palette.muted) if self.color else Style(dim=True)




class ColumnPicture:
    """One column drawn: its text, and what each of its rows shows."""

    __slots__ = ("text", "rows", "more_rows")

    def __init__(self, text: Text, rows: list[int | None] | None = None, more_rows: tuple[int, ...] = ()) -> None:
        self.text = text
        self.rows: list[int | None] = [] if rows is None else rows  # card index per row, None = no card
        self.more_rows = more_rows  # rows of the "⋮ n more" line (a click shows the whole column)


def empty_mark(state: ColumnState, look: Look) -> tuple[str, str | None]:
    """An empty column's mark and background: a target of the held group, or where the hint goes."""
    if state.target:
        return look.marks["target"], look.palette.target
    if state.hint_to:
        return look.marks["hint_to"], look.palette.hint
    return " ", None


def empty_slot(mark: str, w: int) -> str:
    """An empty column's slot in ``w`` cells: ``[▶ empty]``, ``[empty]``, ``[▶]`` — never a cut word."""
    inner = w - 2
    if inner < 1:
        return mark[:w]
    empty = _("empty")
    for body in (f"{mark} {empty}" if mark.strip() else empty, mark + empty, mark.strip()):
        if len(body) <= inner:
            return "[" + body.center(inner) + "]"
    return "[" + mark[:inner].center(inner) + "]"


def empty_style(bg: str | None, under_cursor: bool, color: bool, palette: Palette = CLOTH) -> Style:
    if color:
        style = Style(bgcolor=bg, color=palette.black, bold=True) if bg else Style(color=palette.slot)
    else:
        style = Style(reverse=True, bold=True) if bg else Style(dim=True)
    return style + Style(underline=True, bold=True) if under_cursor else style


def card_label(card: int, look: Look) -> str:
    if card == UNKNOWN:  # a face-up card a Palast view has not been told yet
        return UNKNOWN_TEXT
    return RANKS[rank_of(card)] + look.suits[suit_of(card)]


def card_glyph(card: int, look: Look) -> str:
    return "?" if card == UNKNOWN else look.suits[suit_of(card)]


def points_style(badge: str, base: Style, look: Look, bar: bool = False) -> Style:
    """Points shown where they were earned: green for a gain, red for a loss, bold (the sign is
    written too, so they never rely on colour alone)."""
    pal = look.palette
    if not look.color:
        return Style(bold=True)
    gain = badge.startswith("+")
    colour = (pal.gain_bar if gain else pal.loss_bar) if bar else (pal.gain if gain else pal.loss)
    return base + Style(color=colour, bold=True)


COMPACT_WIDTH = 4
"""A column of the compact table (SPEC §17, 40 to 79 terminal columns): one cell for the card's
mark (▲ held, ▶ target, ? hint …), which is the gap to the column before otherwise, and 3 cells
of card."""


def draw_column(state: ColumnState, number: int, width: int, height: int, look: Look) -> ColumnPicture:
    """Draw one column into ``width`` × ``height`` cells (``width`` includes a 1-cell gap)."""
    w = max(3, width - 1)
    if w <= COMPACT_WIDTH:
        return draw_compact(state, number, height, look)
    text = Text(no_wrap=True, overflow="crop", end="")
    rows: list[int | None] = []
    marks = look.marks
    color = look.color
    pal = look.palette

    def line(s: str, style: Style | str = "", index: int | None = None, tail: tuple[str, Style] | None = None) -> None:
        if rows:
            text.append("\n")
        if tail is None:
            text.append(s[:w].ljust(w), style)
        else:  # ``tail`` ends the line in a style of its own
            room = w - len(tail[0])
            text.append(s[:room].ljust(room), style)
            text.append(*tail)
        text.append(" ")
        rows.append(index)

    # Header: the column number (key 0 is column 10), highlighted under the cursor.
    # Under the cursor the number is also bracketed: the cursor shows without colour or
    # attributes too (NO_COLOR, a screen reader, a copied screen).
    # Only the number (with its brackets) is reversed, not the whole width: the cursor going
    # from one column to another rewrites a few cells (SPEC §11's byte floor).
    head = f"[{number}]" if state.cursor_here else str(number)
    if state.cursor_here and len(head) < w:
        left = (w - len(head)) // 2
        if rows:
            text.append("\n")
        text.append(" " * left, Style(dim=True))
        text.append(head, Style(reverse=True, bold=True))
        text.append(" " * (w - left - len(head)), Style(dim=True))
        text.append(" ")
        rows.append(None)
    else:
        line(head.center(w), Style(reverse=True, bold=True) if state.cursor_here else Style(dim=True))

    cards, n, down = state.cards, len(state.cards), state.down
    avail = height - 1
    if n == 0:
        mark, bg = empty_mark(state, look)
        line(empty_slot(mark, w), empty_style(bg, state.cursor == -1, color, pal), None)
        return ColumnPicture(text, rows)

    up = n - down
    protected = max(state.movable, state.held, state.hint_from, 1)
    loose = up - protected  # face-up cards above the movable group
    # The exposed card is drawn whole, with or without colour (without, it is a reversed block).
    exposed_lines = (5 if height >= 30 and w >= 9 else 3) if w >= 6 else 1
    need = (1 if down else 0) + loose + protected - 1 + exposed_lines
    while need > avail and exposed_lines > 1:
        exposed_lines -= 1
        need -= 1
    # Too tall: the face-up cards above the movable group give way to one "⋮ n more" line, so
    # the group and the exposed card stay.  Only a group taller than the screen (in Scorpion
    # every face-up card moves) loses its top part too; the exposed card always stays.
    budget = avail - (1 if down else 0) - (exposed_lines - 1)
    hide_at, hide_count = down, 0
    if up > budget:
        hide_count = up - max(1, budget - 1)  # one line says how many are hidden
    if down:
        back = marks["back"]
        line(f" {down} ".center(w, back), Style(color=pal.back_ink, bgcolor=pal.back) if color else Style(dim=True), 0)

    def card_style(i: int, target: bool = True, cursor: bool = True, held: bool = True) -> tuple[str, Style]:
        c = cards[i]
        from_end = n - i
        mark = " "
        bg = pal.face
        if from_end <= state.held and held:
            bg = pal.held
            mark = marks["held"] if from_end == state.held else " "
        elif from_end <= state.hint_from:
            bg = pal.hint
            mark = marks["hint"] if from_end == state.hint_from else " "
        elif i == n - 1 and state.target and target:
            bg, mark = pal.target, marks["target"]
        elif i == n - 1 and state.hint_to:
            bg, mark = pal.hint, marks["hint_to"]
        elif state.landed and from_end == state.landed:
            mark = marks["landed"]  # the lead card of the group the last move put here
        if c == UNKNOWN:
            st = Style(color=pal.back_ink, bgcolor=pal.back) if color else Style(dim=True)
        elif color:
            st = Style(color=look.suit_color(suit_of(c)), bgcolor=bg, bold=bg != pal.face)
        else:
            # Without colour a card reads as a reversed block (README: bold and reverse video);
            # the held group, the hint and the targets are bold and not reversed, with their marks.
            st = Style(reverse=bg == pal.face, bold=bg != pal.face)
        if state.cursor == i and cursor:
            st += Style(underline=True, bold=True)
            if mark == " " and i != n - 1:  # a card above the exposed one: marked in the text too
                mark = marks["cursor"]
        return mark, st

    more_style = Style(dim=True)
    more_rows: list[int] = []
    for i in range(down, n):
        if hide_count and hide_at <= i < hide_at + hide_count:
            if i == hide_at:
                more = f"{marks['more']} " + _("{n} more").format(n=hide_count)
                more_rows.append(len(rows))
                line((more if len(more) <= w else f"{marks['more']} {hide_count}").center(w), more_style, None)
            continue
        mark, st = card_style(i)
        label = card_label(cards[i], look)
        glyph = card_glyph(cards[i], look)
        badge = state.badge[1] if state.badge is not None and state.badge[0] == i else ""
        if badge and len(mark + label) + 1 + len(badge) <= w:
            # Points earned here (SPEC §15): at the right end of the card's line, the sign written.
            line(mark + label, st, i, tail=(badge, points_style(badge, st, look)))
        elif w >= 10:  # room for a corner glyph on the right, like a real card's edge
            line((mark + label).ljust(w - 2) + glyph, st, i)
        else:
            line(mark + label, st, i)
        if i == n - 1 and exposed_lines > 1:
            # The held group's exposed card, a target and the cursor are marked on the card's
            # first line only (the mark and colour, the cursor's underline): the pick that lifts
            # the group, marks every target and moves the cursor, and the put that clears them,
            # write a third as much for each card (SPEC §11's byte floor).
            rest = card_style(i, target=False, cursor=False, held=False)[1]
            for _i in range((exposed_lines - 2) // 2):
                line("", rest, i)
            if exposed_lines >= 3:
                line(glyph.center(w), rest, i)
            for _i in range((exposed_lines - 2) // 2):
                line("", rest, i)
            line(label.rjust(w), rest, i)
    return ColumnPicture(text, rows, tuple(more_rows))



def draw_compact(state: ColumnState, number: int, height: int, look: Look) -> ColumnPicture:
    """One column of the compact table in 4 cells: the card's mark in the first (never colour
    alone: the held group's top card has ▲, a target ▶, the hinted group ?, the hinted target ◁,
    the cursor ›; else a blank, the gap), ``10♥`` or ``K♠`` (ASCII ``TH``) in the other three.  Face-down cards are one
    ``░5░`` line, the face-up cards above the movable group give way to one ``⋮12`` line when the
    column is too tall; the exposed card is one line."""
    text = Text(no_wrap=True, overflow="crop", end="")
    rows: list[int | None] = []
    marks, color, pal = look.marks, look.color, look.palette
    cw = COMPACT_WIDTH - 1

    def line(body: str, style: Style | str = "", index: int | None = None, mark: str = " ",
             mark_style: Style | str = "") -> None:
        if rows:
            text.append("\n")
        text.append(mark[:1] or " ", mark_style if mark.strip() else "")
        text.append(body[:cw].ljust(cw), style)
        rows.append(index)

    if state.cursor_here:  # bracketed as well as reversed: the cursor shows without colour too
        head = f"[{number}]"
        text.append(head[:COMPACT_WIDTH].ljust(COMPACT_WIDTH), Style(reverse=True, bold=True))
        rows.append(None)
    else:
        line(str(number).ljust(cw), Style(dim=True))

    cards, n, down = state.cards, len(state.cards), state.down
    avail = height - 1
    if n == 0:
        mark, bg = empty_mark(state, look)
        style = empty_style(bg, state.cursor == -1, color, pal)
        line(empty_slot(mark, cw), style, None)
        return ColumnPicture(text, rows)

    up = n - down
    budget = avail - (1 if down else 0)
    hide_count = up - max(1, budget - 1) if up > budget else 0
    if down:
        back = marks["back"]
        count = str(down)
        line(count.center(cw, back) if len(count) < cw else count,
             Style(color=pal.back_ink, bgcolor=pal.back) if color else Style(dim=True), 0)

    more_rows: list[int] = []
    for i in range(down, n):
        if hide_count and down <= i < down + hide_count:
            if i == down:
                more_rows.append(len(rows))
                line(f"{marks['more']}{hide_count}", Style(dim=True), None)
            continue
        c = cards[i]
        from_end = n - i
        mark, bg = " ", pal.face
        if from_end <= state.held:
            bg = pal.held
            mark = marks["held"] if from_end == state.held else " "
        elif from_end <= state.hint_from:
            bg = pal.hint
            mark = marks["hint"] if from_end == state.hint_from else " "
        elif i == n - 1 and state.target:
            bg, mark = pal.target, marks["target"]
        elif i == n - 1 and state.hint_to:
            bg, mark = pal.hint, marks["hint_to"]
        if c == UNKNOWN:
            st = Style(color=pal.back_ink, bgcolor=pal.back) if color else Style(dim=True)
        elif color:
            st = Style(color=look.suit_color(suit_of(c)), bgcolor=bg, bold=bg != pal.face)
        else:
            st = Style(reverse=bg == pal.face, bold=bg != pal.face)
        if state.cursor == i:
            st += Style(underline=True, bold=True)
            if mark == " " and i != n - 1:
                mark = marks["cursor"]
        mark_style = (Style(color=pal.black, bgcolor=bg, bold=True) if color else Style(bold=True))
        label = card_label(c, look)
        line(label.replace("10", "T") if look.ascii else label, st, i, mark, mark_style)
    return ColumnPicture(text, rows, tuple(more_rows))
