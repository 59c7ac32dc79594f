"""A round raced against a ghost (SPEC §16): the normal table screen plus the ghost's line above
it, drawn by the Palast race's own line (``ui/palast/lines.opponent_line``) and advanced by the
record's times against this round's play time.  Only the line: never the ghost's cards."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from spider_tui.ghost import Ghost
from spider_tui.session import Session
from spider_tui.ui.palast import lines
from spider_tui.ui.render import Look
from spider_tui.ui.screens.game_screen import GameScreen


class GhostScreen(GameScreen):
    DEFAULT_CSS = """
    GhostScreen #opponents { height: auto; background: #10201a; color: #d8d8c8; padding: 0 1;
                             text-wrap: nowrap; text-overflow: ellipsis; }
    GhostScreen.-small #opponents { display: none; }
    """

    def __init__(self, session: Session, look: Look, ghost: Ghost) -> None:
        super().__init__(session, look)
        self.ghost = ghost

    def compose(self) -> ComposeResult:
        text = self._shown["#opponents"] = self.ghost_text()
        yield Static(text, id="opponents", markup=False)
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(0.5, self.show_ghost)

    def ghost_text(self) -> str:
        return lines.opponent_line(self.ghost.progress(self.table.seconds))

    def show_ghost(self) -> None:
        if not self.is_current:
            return
        self.put("#opponents", self.ghost_text())
