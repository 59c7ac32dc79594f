"""Widgets of the table.  They draw what the Table says and report clicks; no rules here."""

from __future__ import annotations

from fractions import Fraction

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from spider_tui.ui.render import ColumnPicture, ColumnState, Look, draw_column


class Column:
    """One of the ten columns of a :class:`Tableau` (not a widget): its state, its picture and
    where it is drawn (``x``, ``width``: cells from the tableau's left edge)."""

    def __init__(self, tableau: Tableau, column: int, state: ColumnState | None) -> None:
        self.tableau = tableau
        self.column = column
        self.state: ColumnState | None = state
        self.x = self.width = 0
        self._picture: ColumnPicture | None = None
        self._picture_key: tuple | None = None
        self._lines: list[list[Segment]] | None = None  # its lines as segments, cut to its width

    @property
    def look(self) -> Look:
        return self.tableau.look

    @property
    def dimmed(self) -> bool:
        return self.tableau.dimmed

    @property
    def region(self) -> Region:
        """Where the column is on the screen."""
        r = self.tableau.region
        return Region(r.x + self.x, r.y, self.width, r.height)

    def picture(self, placed: bool = False) -> ColumnPicture:
        """The column drawn (``placed``: the tableau has just placed its columns)."""
        if not placed:
            self.tableau.place()
        state = self.state
        key = (state and (state.cards, state.down, state.movable, state.held, state.target, state.hint_from,
                          state.hint_to, state.cursor, state.cursor_here, state.badge),
               self.width, self.tableau.size.height, self.look)
        if self._picture is None or key != self._picture_key:
            # Drawn one cell wider and that gap cell cropped away (the gap is the cloth).
            self._picture = draw_column(state or ColumnState(cards=(), down=0, movable=0), self.column + 1,
                                        self.width + 1, self.tableau.size.height, self.look)
            self._picture_key = key
            self._lines = None
        return self._picture

    def lines(self) -> list[list[Segment]]:
        """The column's lines as segments on the tableau's own style, each ``width`` cells
        (called by the tableau once it has placed its columns)."""
        pic = self.picture(placed=True)
        if self._lines is None:
            tableau, width = self.tableau, self.width
            base = tableau._base
            console = tableau.app.console
            texts: list[Text] = list(pic.text.split("\n", allow_blank=True))
            if tableau.dimmed:
                dim = base + tableau.look.dim_style
                texts = [Text(t.plain, style=dim) for t in texts]
            out = []
            for text in texts[:tableau.size.height]:
                # rich leaves a text's own style out of a text without spans: put it in
                segments = (list(text.render(console)) if text.spans
                            else [Segment(text.plain, console.get_style(text.style) if text.style else None)])
                strip = Strip(segments).crop_extend(0, width, None).apply_style(base)
                out.append(list(strip))
            self._lines = out
        return self._lines

    @property
    def size(self) -> Size:
        return Size(self.width, self.tableau.size.height)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The column as drawn on the screen (``crop`` in the column's own cells)."""
        return self.tableau.render_lines(crop.translate((self.x, 0)))

    def index_at(self, y: int) -> int | None:
        rows = self.picture().rows
        return rows[y] if 0 <= y < len(rows) else None  # None: below the cards, the column itself


class Tableau(Widget):
    """The ten columns, drawn by one widget line by line (Textual's Line API: one widget at
    start instead of ten, SPEC §11).  It looks as ten widgets of ``1fr`` with a 1-cell gap
    (the compact table: ten of 4 cells, centred) and tells which column a click is on."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    Tableau { height: 1fr; }
    """

    class Tapped(Message):
        def __init__(self, column: int, index: int | None, double: bool) -> None:
            super().__init__()
            self.column, self.index, self.double = column, index, double

    class Pressed(Message):
        """Mouse button down on a row of a column (``index``: the card drawn there)."""

        def __init__(self, column: int, index: int | None) -> None:
            super().__init__()
            self.column, self.index = column, index

    class Released(Message):
        """Mouse button up over a column (the end of a drag that may have begun elsewhere)."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    class Dragged(Message):
        """The mouse moved over a column with a button held (a drag going on)."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    class Peek(Message):
        """A click on the ``⋮ n more`` line: show the whole column."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    def __init__(self, look: Look, states: list[ColumnState], *, compact_on: str | None = None,
                 id: str | None = "tableau") -> None:
        super().__init__(id=id)
        self.look = look
        self.auto_links = False
        self.columns = [Column(self, i, state) for i, state in enumerate(states)]
        self.compact_on = compact_on  # the screen's class that asks for the compact table, if any
        self.dimmed = False  # a dialog is open over the table: drawn muted
        self._placed: tuple | None = None
        self._base = self._cloth = Style()
        self._strips: dict[int, Strip] = {}

    # ------------------------------------------------------------------ geometry
    def compact(self) -> bool:
        return self.compact_on is not None and self.is_attached and self.screen.has_class(self.compact_on)

    def place(self) -> None:
        """Where each column goes: as Textual lays out ten ``1fr`` widgets with ``margin-right:
        1`` (fractions floored), or in the compact table ten of 4 cells centred."""
        width, compact = self.size.width, self.compact()
        key = (width, self.size.height, compact)
        if key == self._placed:
            return
        self._placed = key
        self._strips.clear()
        self._base = self.rich_style  # the columns' own style (the cloth is its background)
        self._cloth = Style(bgcolor=self._base.bgcolor)
        n = len(self.columns)
        if compact:
            left = max(0, (width - 4 * n) // 2)
            for i, col in enumerate(self.columns):
                col.x, col.width, col._lines = left + 4 * i, 4, None
            return
        unit = Fraction(width - n, n) if width > n else Fraction(1)
        x = Fraction(0)
        for col in self.columns:
            col.x = x.__floor__()
            col.width = (x + unit - col.x).__floor__()
            col._lines = None
            x += unit + 1

    def notify_style_update(self) -> None:
        """Its colours may have changed (a theme): every line is drawn again."""
        super().notify_style_update()
        self._placed = None

    def column_at(self, x: int) -> Column | None:
        """The column drawn at ``x`` (None: the gap between two, or beside the table)."""
        self.place()
        for col in self.columns:
            if col.x <= x < col.x + col.width:
                return col
        return None

    # ------------------------------------------------------------------ drawing
    def dim(self, on: bool) -> None:
        """Draw the columns muted (a dialog is open over them) or in their colours again."""
        if on != self.dimmed:
            self.dimmed = on
            for col in self.columns:
                col._lines = None
            self._strips.clear()
            self.refresh()

    def show(self, states: list[ColumnState]) -> None:
        """Take the columns' new states; repaint only the lines that differ (bytes matter over SSH)."""
        for col, state in zip(self.columns, states):
            self.show_column(col, state)

    def show_column(self, col: Column, state: ColumnState) -> None:
        if state == col.state:
            return
        if col.state is None or col._picture is None or not self.size.height:
            col.state = state
            col._lines = None
            self._strips.clear()
            self.refresh()
            return
        old = col.picture().text.split("\n")
        col.state = state
        new = col.picture().text.split("\n")
        dirty = [Region(col.x, y, col.width, 1) for y in range(max(len(old), len(new)))
                 if y >= len(old) or y >= len(new) or old[y] != new[y]]
        col._lines = None
        for region in dirty:
            self._strips.pop(region.y, None)
        if dirty:
            self.refresh(*dirty)

    def render_line(self, y: int) -> Strip:
        self.place()
        strip = self._strips.get(y)
        if strip is None:
            base = self._cloth  # between and beside the columns only the cloth, as the screen's own background
            width = self.size.width
            segments: list[Segment] = []
            x = 0
            for col in self.columns:
                if col.x > x:
                    segments.append(Segment(" " * (col.x - x), base))
                lines = col.lines()
                segments.extend(lines[y] if y < len(lines) else (Segment(" " * col.width, base),))
                x = col.x + col.width
            if width > x:
                segments.append(Segment(" " * (width - x), base))
            strip = self._strips[y] = Strip(segments).crop(0, width)
        return strip

    # ------------------------------------------------------------------ the mouse
    def on_mouse_down(self, event: events.MouseDown) -> None:
        col = self.column_at(event.x)
        if col is not None:
            self.post_message(self.Pressed(col.column, col.index_at(event.y)))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if event.button:  # only a drag: plain motion over the table costs nothing (SPEC §11)
            col = self.column_at(event.x)
            if col is not None:
                self.post_message(self.Dragged(col.column))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        col = self.column_at(event.x)
        if col is not None:
            self.post_message(self.Released(col.column))

    def on_click(self, event: events.Click) -> None:
        col = self.column_at(event.x)
        if col is None:
            return  # the gap: the screen takes the click (as it did from the row of columns)
        event.stop()
        pic = col.picture()
        if 0 <= event.y < len(pic.rows) and pic.rows[event.y] is None and event.y in pic.more_rows:
            self.post_message(self.Peek(col.column))
            return
        self.post_message(self.Tapped(col.column, col.index_at(event.y), event.chain >= 2))


class Chip(Static):
    """A one-line button: a label that runs an action when clicked (cheaper than Button)."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    Chip { width: auto; height: 1; padding: 0 1; margin: 0 1 0 0; background: $panel; text-wrap: nowrap; text-overflow: ellipsis; }
    Chip.-disabled { color: $text-disabled; }
    """

    def __init__(self, label: str, action: str, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(label, id=id, classes=classes, markup=False)
        self.action = action
        self.auto_links = False

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        if not self.has_class("-disabled"):
            name = self.action.split("(", 1)[0]
            node = self.parent
            while node is not None and not hasattr(node, f"action_{name}") and node is not self.screen:
                node = node.parent
            await self.app.run_action(self.action, default_namespace=node or self.screen)
