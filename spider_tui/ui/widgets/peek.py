"""The whole column at a glance (issue: cards hidden behind ``⋮ n more`` must stay readable).

A click on the ``⋮ n more`` line, or ``v`` and a column key, shows the column's face-up cards
whole over the table, in as many side-by-side runs of lines as the screen needs; any key or
click closes it.  Only face-up cards are shown (face-down cards are only counted).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spider_tui.engine import suit_of
from spider_tui.i18n import _
from spider_tui.ui.widgets.overlay import TextDialog
from spider_tui.ui.render import Look, card_label

CELL = 5  # "10♥" plus room


def peek_lines(cards: list[int], down: int, look: Look, rows: int) -> list[Text]:
    """The column as text lines: a title line, then its face-up cards top to bottom, filling
    ``rows`` lines per run and continuing in the next run to the right."""
    up = cards[down:]
    per = max(1, rows)
    runs = [up[i:i + per] for i in range(0, len(up), per)] or [[]]
    lines = []
    for r in range(min(per, max(len(run) for run in runs))):
        line = Text()
        for k, run in enumerate(runs):
            if r < len(run):
                card = run[r]
                style = Style(color=look.suit_color(suit_of(card)), bgcolor=look.palette.face, bold=True) if look.color else Style(bold=True)
                label = card_label(card, look)
                line.append(f"{k * per + r + 1:>2} ", Style(dim=True))
                line.append(label.ljust(CELL - 1), style)
            else:
                line.append(" " * (CELL + 2))
            line.append("  ")
        lines.append(line)
    return lines


class ColumnPeek(TextDialog):
    """Column ``column`` (0-based) shown whole; any key or click closes it."""

    KEYS = {"*": None}

    def __init__(self, column: int, cards: list[int], down: int, look: Look, done=None) -> None:
        super().__init__(done)
        self.column, self.cards, self.down, self.look = column, list(cards), down, look
        self.rows = 1

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        up = len(self.cards) - self.down
        self.rows = max(1, min(up, height - 6))
        runs = max(1, -(-up // self.rows))
        w = max(len(self.title()) + 4, runs * (CELL + 5) + 4)
        return min(width, w), min(height, self.rows + 3)  # border (2) and the title

    @property
    def number(self) -> int:
        """The column's number on screen (1-10)."""
        return self.column + 1

    def title(self) -> str:
        sep = self.look.marks["sep"]
        return _("Column {n} {sep} {down} face down {sep} any key closes").format(n=self.number, sep=sep, down=self.down)

    def render(self) -> Text:
        lines = peek_lines(self.cards, self.down, self.look, self.rows)
        text = Text("\n", no_wrap=True, overflow="crop").join([Text(self.title(), style="bold"), *lines])
        text.no_wrap = True
        return text

    def on_click(self, event) -> None:
        event.stop()
        self.close(None)
