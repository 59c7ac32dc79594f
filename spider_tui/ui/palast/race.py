"""The race: the normal table screen on the session's ``RaceTable``, plus one line per opponent
above it and the round's countdown (SPEC §13).  An opponent's progress repaints only their line."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from spider_tui.palast import lines
from spider_tui.palast.session import PalastRound, PalastSession
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.render import Look


class RaceScreen(GameScreen):
    """A Palast round.  Same keys and clicks as a solo round; Retry and New are not offered;
    q goes back to the Palast screen (the seat and the clock stay)."""

    BINDINGS = [Binding("x", "leave_table", "Leave table")]
    DEFAULT_CSS = """
    RaceScreen #opponents { height: auto; background: #10201a; color: #d8d8c8; padding: 0 1; }
    RaceScreen.-small #opponents { display: none; }
    """

    def __init__(self, session: PalastSession, look: Look) -> None:
        assert session.race is not None
        self.round = PalastRound(session)  # the round face (spider_tui.session.Session)
        super().__init__(session.race, look, self.round.title)
        self.session = session

    def compose(self) -> ComposeResult:
        yield Static(self.opponents_text(), id="opponents", markup=False)
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#retry").display = False
        self.query_one("#new").display = False
        self.set_interval(1.0, self.show_info)  # the countdown: only the runs/score bar repaints

    def opponents_text(self) -> str:
        ops = self.session.opponents
        if not ops:
            return "Training: racing the clock alone."
        return "\n".join(lines.opponent_line(p) for p in ops.values())

    def show_opponents(self) -> None:
        self.put("#opponents", self.opponents_text(), layout=False)

    def palast_changed(self, what: str) -> None:
        """The session changed: repaint only what that touches."""
        if what == "progress":
            self.show_opponents()
        elif what in ("table", "offline", "online", "status"):
            t = self.table
            if what == "offline":
                t.status = self.session.status if self.session.closed else "Offline, reconnecting…"
                t.version += 1
            elif what == "online" and t.status == "Offline, reconnecting…":
                t.status = ""
                t.version += 1
            elif what == "status" and self.session.status:
                t.status = self.session.status
                t.version += 1
            self.sync()

    def after(self) -> None:
        self.sync()
        self.round.changed()  # the round's end pauses the table; the server keeps the result

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("retry", "new", "still_winnable"):  # no solver at a race: it would peek
            return False
        return super().check_action(action, parameters)

    def action_table(self, name: str) -> None:
        if name == "best_move" and self.table.won:
            return
        getattr(self.table, name)()
        self.after()

    def action_give_up(self) -> None:
        from spider_tui.ui.widgets.dialogs import Confirm

        t = self.table
        if t.over:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.round.give_up()
                self.sync()

        self.open_dialog(Confirm(self.round.give_up_question(), answered))

    def action_leave_table(self) -> None:
        """x: leave the running table, after a question (the rest of its rounds are forfeited)."""
        from spider_tui.ui.widgets.dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._leave_table(), exclusive=True)

        self.open_dialog(Confirm(lines.LEAVE_RUNNING, answered))

    async def _leave_table(self) -> None:
        if await self.session.leave():
            self.dismiss()

    def action_retry(self) -> None:
        pass

    def action_new(self) -> None:
        pass

    def action_leave(self) -> None:
        """q: back to the Palast screen; the round goes on (Enter there comes back)."""
        self.dismiss()
