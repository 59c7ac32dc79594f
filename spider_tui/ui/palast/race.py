"""The race: the normal table screen on the session's ``RaceTable``, plus one line per opponent
above it and the round's countdown (SPEC §13).  An opponent's progress repaints only their line."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from spider_tui.commands import PALAST_RACE_COMMANDS
from spider_tui.ui.keys import bindings
from spider_tui.ui.palast import lines
from spider_tui.i18n import N_, _
from spider_tui.palast.client.session import BACK_ONLINE_TEXT, PalastRound, PalastSession
from spider_tui.ui import messages
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.widgets.dialogs import Confirm
from spider_tui.ui.render import Look


class RaceScreen(GameScreen):
    """A Palast round, run through its round face (``PalastRound``) like any round: same keys and
    clicks; the round offers no Retry, New or solver. This screen adds only the race's own: the
    opponents' lines, the countdown, the session's news; q goes back to the Palast screen (the
    seat and the clock stay)."""

    BINDINGS = bindings(PALAST_RACE_COMMANDS)
    DEFAULT_CSS = """
    /* One row per player, whatever the width: a wrapped line pushed the last player out of sight. */
    RaceScreen #opponents { height: auto; background: #10201a; color: #d8d8c8; padding: 0 1;
                            text-wrap: nowrap; text-overflow: ellipsis; }
    RaceScreen.-small #opponents { display: none; }
    """

    def __init__(self, palast: PalastSession, look: Look) -> None:
        assert palast.race is not None
        super().__init__(PalastRound(palast), look)
        self.palast = palast

    def compose(self) -> ComposeResult:
        text = self._shown["#opponents"] = self.opponents_text()
        yield Static(text, id="opponents", markup=False)
        yield from super().compose()

    def sync(self) -> None:
        super().sync()
        self.show_opponents()  # the player's own running total follows their score

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self.show_info)  # the countdown: only the runs/score bar repaints

    def opponents_text(self) -> str:
        ops = self.palast.opponents
        if not ops:
            return _("Training: racing the clock alone.")
        # The table so far: each total is the total after the rounds before plus this round's score.
        me = self.palast.name
        scores = {p.player: p.score or 0 for p in ops.values()}
        scores[me] = int(self.table.game.score or 0)
        totals = lines.race_totals(self.palast.totals_before(), scores)
        training = self.palast.table is not None and self.palast.table.training
        mine = lines.me_line(*totals[me], len(totals), training)
        return "\n".join([mine] + [lines.opponent_line(p, totals[p.player]) for p in ops.values()])

    def show_opponents(self) -> None:
        text, before = self.opponents_text(), str(self._shown.get("#opponents", ""))
        self.put("#opponents", text, layout=text.count("\n") != before.count("\n"))

    def palast_changed(self, what: str) -> None:
        """The session changed: repaint only what that touches."""
        if what == "progress":
            self.show_opponents()
        elif what in ("table", "offline", "online", "status"):
            t, palast = self.table, self.palast
            if what == "offline":
                t.say(palast.offline_status)
            elif what == "online":
                t.say(_(BACK_ONLINE_TEXT))  # a reconnect is said, not silent
            elif what == "status" and palast.status:
                t.say(palast.status)
            self.sync()

    def action_help(self) -> None:
        """Help opens at its PALAST section: the points table, rounds, the league (SPEC §15)."""
        self.post_message(messages.ShowHelp(section="PALAST"))

    def action_leave_table(self) -> None:
        """x: leave the running table, after a question (the rest of its rounds are forfeited)."""

        def answered(yes: object) -> None:
            if yes:
                self.run_worker(self._leave_table(), exclusive=True)

        self.open_dialog(Confirm(_(lines.LEAVE_RUNNING), answered))

    async def _leave_table(self) -> None:
        if await self.palast.leave():
            self.dismiss()

    def action_leave(self) -> None:
        """q: back to the Palast screen; the round goes on (Enter there comes back)."""
        self.dismiss()
