"""Widgets of the table.  They draw what the Table says and report clicks; no rules here."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from spider_tui.ui.render import ColumnPicture, ColumnState, Look, draw_column


class ColumnView(Widget):
    """One of the ten columns.  Repaints only when its ``ColumnState`` changes."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    ColumnView { width: 1fr; height: 1fr; margin-right: 1; }
    """

    class Tapped(Message):
        def __init__(self, column: int, index: int | None, double: bool) -> None:
            super().__init__()
            self.column, self.index, self.double = column, index, double

    class Pressed(Message):
        """Mouse button down on a row of this column (``index``: the card drawn there)."""

        def __init__(self, column: int, index: int | None) -> None:
            super().__init__()
            self.column, self.index = column, index

    class Released(Message):
        """Mouse button up over this column (the end of a drag that may have begun elsewhere)."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    class Dragged(Message):
        """The mouse moved over this column with a button held (a drag going on)."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    class Peek(Message):
        """A click on the ``⋮ n more`` line: show the whole column."""

        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    def __init__(self, column: int, look: Look, state: ColumnState | None = None) -> None:
        super().__init__(id=f"col{column + 1}")
        self.column = column
        self.look = look
        self.auto_links = False
        self.state: ColumnState | None = state
        self._picture: ColumnPicture | None = None
        self._picture_key: tuple | None = None
        self.dimmed = False  # a dialog is open over the table: drawn muted

    def dim(self, on: bool) -> None:
        """Draw the column muted (a dialog is open over it) or in its colours again."""
        if on != self.dimmed:
            self.dimmed = on
            self.refresh()

    def show(self, state: ColumnState) -> None:
        """Take the column's new state; repaint only the lines that differ (bytes matter over SSH)."""
        if state == self.state:
            return
        if self.state is None or self._picture is None or not self.size.height:
            self.state = state
            self.refresh()
            return
        old = self.picture().text.split("\n")
        self.state = state
        new = self.picture().text.split("\n")
        width = self.size.width
        dirty = [Region(0, y, width, 1) for y in range(max(len(old), len(new)))
                 if y >= len(old) or y >= len(new) or old[y] != new[y]]
        if dirty:
            self.refresh(*dirty)

    def picture(self) -> ColumnPicture:
        key = (self.state and (self.state.cards, self.state.down, self.state.movable, self.state.held,
                               self.state.target, self.state.hint_from, self.state.hint_to,
                               self.state.cursor, self.state.cursor_here, self.state.badge), self.size.width, self.size.height, self.look)
        if self._picture is None or key != self._picture_key:
            state = self.state or ColumnState(cards=(), down=0, movable=0)
            # The 1-cell gap between columns is this widget's margin (never repainted), so the
            # picture is drawn one cell wider and its gap cell cropped away.
            self._picture = draw_column(state, self.column + 1, self.size.width + 1, self.size.height, self.look)
            self._picture_key = key
        return self._picture

    def render(self) -> Text:
        text = self.picture().text
        if self.dimmed:
            return Text(text.plain, style=self.look.dim_style, no_wrap=True, overflow="crop", end="")
        return text

    def index_at(self, y: int) -> int | None:
        rows = self.picture().rows
        return rows[y] if 0 <= y < len(rows) else None  # None: below the cards, the column itself

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.post_message(self.Pressed(self.column, self.index_at(event.y)))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if event.button:  # only a drag: plain motion over the table costs nothing (SPEC §11)
            self.post_message(self.Dragged(self.column))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.post_message(self.Released(self.column))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        pic = self.picture()
        if 0 <= event.y < len(pic.rows) and pic.rows[event.y] is None and event.y in pic.more_rows:
            self.post_message(self.Peek(self.column))
            return
        self.post_message(self.Tapped(self.column, self.index_at(event.y), event.chain >= 2))


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
