"""NO_COLOR (https://no-color.org): an output filter that drops every colour."""

from __future__ import annotations

from rich.segment import Segment
from textual.filter import LineFilter


class StripColor(LineFilter):
    """Drop every colour from the output, keeping bold, dim, reverse and underline: no colour
    codes at all (Textual's own NO_COLOR filter turns colours into 256-colour greys)."""

    def apply(self, segments: list[Segment], background) -> list[Segment]:
        return [Segment(text, None if style is None else style.without_color, control)
                for text, style, control in segments]
