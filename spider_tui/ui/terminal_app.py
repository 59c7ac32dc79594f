"""The Textual plumbing under ``SpiderApp``: what the terminal gets, not what the game does.

NO_COLOR's filter, the driver whose writes are cut to what changes the screen (``ui/wire.py``),
a whole repaint after a resize, the table's colours as CSS variables, and whole-cell scrollbars
in ASCII mode.
"""

from __future__ import annotations

from typing import Sequence

from textual.app import App
from textual.filter import LineFilter, Monochrome, NoColor
from textual.scrollbar import ScrollBar, ScrollBarRender

from spider_tui.ui.colours import CLOTH, css_variables
from spider_tui.ui.no_color import StripColor


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars of whole cells only: no ▁▂▃ block glyphs in ASCII mode."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


STRIP_COLOR = StripColor()  # NO_COLOR's filter (get_line_filters)


class TerminalApp(App):
    """An App drawn for spider's terminals (see the module doc)."""

    def get_line_filters(self) -> Sequence[LineFilter]:
        """NO_COLOR (Textual reads it into ``no_color``): no colour codes at all.  Textual's own
        filter for it leaves 256-colour greys (``Monochrome``), so ``StripColor`` takes its place."""
        filters = super().get_line_filters()
        if not self.no_color:
            return filters
        # First: with no colour left, Textual's truecolor filter keeps the faint (dim) attribute
        # instead of turning it into a blended colour that would then be stripped too.
        return [STRIP_COLOR] + [f for f in filters if not isinstance(f, (Monochrome, NoColor))]

    def get_driver_class(self):
        """Textual's driver for this terminal, its writes cut to what changes the screen
        (``ui/wire.py``: SPEC §11's bytes over a slow link)."""
        from spider_tui.ui.wire import Wire, wire_driver

        self.wire = Wire()
        return wire_driver(super().get_driver_class(), self.wire)

    _wire_size: tuple[int, int] | None = None
    _resizes = 0

    def on_resize(self, event) -> None:
        """The terminal changed size: it may have cleared or reflowed what it showed, so the
        repaint that follows is written whole.  One Resize is let by: the driver's own at start
        (the second the app gets, after its own), to the size it already had and now after the
        first frame, which the terminal has whole (written again, it cost 6 KB at every start).
        Any later one forgets, even at the same size (a terminal may redraw on SIGWINCH)."""
        wire = getattr(self, "wire", None)
        size = (event.size.width, event.size.height)
        self._resizes += 1
        start_echo = self._resizes == 2 and size == self._wire_size
        if wire is not None and not start_echo:
            wire.forget()
        self._wire_size = size

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The table's colours (``ui/colours.py``) as CSS variables for ``app.tcss``; a theme's
        own variables may replace them."""
        return {**super().get_theme_variable_defaults(), **css_variables(CLOTH)}

    def ascii_borders(self, on: bool) -> None:
        """ASCII mode: whole-cell scrollbars, and ASCII borders (``-ascii`` in app.tcss)."""
        ScrollBar.renderer = AsciiScrollBarRender if on else ScrollBarRender
        if self.is_running:
            self.set_class(on, "-ascii")
