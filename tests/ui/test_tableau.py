"""The table's one widget (``Tableau``) puts its columns where ten column widgets went: ten of
``1fr`` with a 1-cell gap as Textual lays them out (compact: ten of 4 cells, centred), and a
click finds the column under it (none in a gap)."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.containers import Horizontal
from textual.widget import Widget

from spider_tui.engine.game import Game
from spider_tui.table import Table
from spider_tui.ui.render import Look
from spider_tui.ui.widgets import Tableau


class Both(App):
    """Ten plain 1fr widgets with margin-right 1 (how the columns were laid out) over a Tableau."""

    CSS = """
    #row { height: 3; }
    #row Widget { width: 1fr; height: 1fr; margin-right: 1; }
    .-compact #row { align-horizontal: center; }
    .-compact #row Widget { width: 4; margin-right: 0; }
    Tableau { height: 3; }
    """

    def __init__(self, compact: bool) -> None:
        super().__init__()
        self.compact = compact

    def compose(self):
        with Horizontal(id="row"):
            for _ in range(10):
                yield Widget()
        states = Table(Game.new(1, suits=1)).column_states()
        yield Tableau(Look(), states, compact_on="-compact")

    def on_mount(self) -> None:
        self.screen.set_class(self.compact, "-compact")


@pytest.mark.parametrize("width,compact", [(80, False), (83, False), (97, False), (100, False), (133, False),
                                           (201, False), (40, True), (45, True), (61, True), (79, True)])
async def test_columns_sit_where_ten_column_widgets_did(width, compact):
    app = Both(compact)
    async with app.run_test(size=(width, 10)) as pilot:
        await pilot.pause()
        widgets = list(app.query_one("#row").children)
        tableau = app.query_one(Tableau)
        tableau.place()
        assert [(c.x, c.width) for c in tableau.columns] == [(w.region.x, w.region.width) for w in widgets]
        for col, nxt in zip(tableau.columns, tableau.columns[1:]):
            assert tableau.column_at(col.x) is col and tableau.column_at(col.x + col.width - 1) is col
            if nxt.x > col.x + col.width:  # a gap takes no click
                assert tableau.column_at(col.x + col.width) is None
