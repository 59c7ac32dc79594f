"""The Records list and the replay screen (SPEC §16).

The list shows each record's date, deal, suits, rules, result, moves and time (from the header
lines only). The replay shows a :class:`~spider_tui.replay.Replay` on the same ``Tableau``
widget a round uses (not a second renderer), with a move list below the table.
"""

from __future__ import annotations


from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.commands import RECORDS_CLOSE, RECORDS_OPEN, REPLAY_COMMANDS, keys_text
from spider_tui.i18n import _, pgettext
from spider_tui.records import minutes, result_word
from spider_tui.replay import Replay
from spider_tui.safe_text import visible
from spider_tui.store.records import Entry
from spider_tui.ui import messages
from spider_tui.ui.keys import bindings
from spider_tui.ui.render import Look
from spider_tui.ui.widgets import Chip, Tableau
from spider_tui.ui.widgets.footer import Footer


HEAD_PADDING = 6  # the heading's padding left and right (its CSS)


def entry_line(e: Entry) -> str:
    """One line of the Records list: date, deal, suits, rules, result, moves, time."""
    date = e.date.replace("T", " ")[:16]
    deal = visible(e.deal, newlines=False)[:28]
    rules = visible(e.rules, newlines=False)[:24]
    return (f"{date:<16}  {deal:>10}  {visible(e.suits, newlines=False):>1}  {rules:<10}  "
            f"{result_word(visible(e.result, newlines=False)):<11} {visible(e.moves, newlines=False):>4}  "
            f"{minutes(e.seconds):>7}")


def head_line(width: int | None = None) -> str:
    """The list's heading; with "Enter: replay" after it when that fits in ``width`` columns
    (the heading's padding counted; the footer says it too), never cut in the middle."""
    head = (f"{_('Date (UTC)'):<16}  {pgettext('records', 'Deal'):>10}  {_('S'):>1}  {_('Rules'):<10}  "
            f"{_('Result'):<11} {_('Moves'):>4}  {_('Time'):>7}")
    hint = "   " + _("Enter: replay")
    if width is None or cell_len(head + hint) + HEAD_PADDING <= width:
        return head + hint
    return head


class RecordList(OptionList):
    """The records, one an option; its own Enter ("select") is shown in the footer as Replay
    (OptionList's own, hidden, would shadow the screen's and leave the footer without it)."""

    BINDINGS = bindings([RECORDS_OPEN._replace(action="select")])


class RecordsScreen(Screen):
    """The list of records, newest first; Enter opens one in the replay."""

    BINDINGS = bindings([RECORDS_OPEN, RECORDS_CLOSE])
    DEFAULT_CSS = """
    RecordsScreen { align: center top; }
    RecordsScreen #records-head { width: 100%; height: 1; padding: 0 3; color: $text-muted; }  /* HEAD_PADDING */
    RecordsScreen OptionList { height: 1fr; }
    """

    def __init__(self, entries: list[Entry], load) -> None:
        super().__init__()
        self.entries = entries
        self.load = load  # Entry -> Record | str (a reason it couldn't be read)

    def compose(self) -> ComposeResult:
        yield Static(head_line(self.app.size.width), id="records-head", markup=False)
        if self.entries:
            yield RecordList(*[Option(Text(entry_line(e)), id=str(i)) for i, e in enumerate(self.entries)],
                             id="records")
        else:
            yield Static(_("No records yet: every round you finish is kept here."), markup=False, id="records-none")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        entry = self.entries[int(event.option.id or 0)]
        found = self.load(entry)
        if isinstance(found, str):
            self.notify(visible(found), severity="error", markup=False)
            return
        self.post_message(messages.OpenReplay(found))

    def on_resize(self, event: events.Resize) -> None:
        for head in self.query("#records-head").results(Static):
            head.update(head_line(event.size.width))

    def action_open(self) -> None:
        for option_list in self.query(OptionList).results(OptionList):
            option_list.action_select()

    def action_close(self) -> None:
        self.dismiss()


class ReplayScreen(Screen):
    """A record replayed on the table widgets (see the module doc)."""

    BINDINGS = bindings(REPLAY_COMMANDS)
    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #replay-moves { height: 2; padding: 0 1; background: $panel; }
    """

    def __init__(self, replay: Replay, look: Look, review=None, review_now: bool = False) -> None:
        super().__init__()
        self.review_now = review_now
        self.replay = replay
        self.look = look
        self.review = review  # callable(screen) starting "where did I lose it?", or None
        self._timer: Timer | None = None
        self._shown = -1

    def compose(self) -> ComposeResult:
        rp = self.replay
        with Horizontal(id="top"):
            yield Static(visible(rp.title(), newlines=False), id="info", markup=False)
            yield Static("", id="topfill", markup=False)
            yield Chip(_("Back"), "step(-1)", id="replay-back")
            yield Chip(_("Play"), "play", id="replay-play")
            yield Chip(_("Next"), "step(1)", id="replay-next")
        yield Tableau(self.look, rp.table.column_states())
        yield Static("", id="replay-moves", markup=False)
        with Horizontal(id="bottom"):
            yield Static("", id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sync()
        if self.review_now:
            self.review_now = False
            self.action_review()

    def sync(self) -> None:
        t = self.replay.table
        if t.version == self._shown:
            return
        self._shown = t.version
        states = t.column_states()
        self.query_one(Tableau).show(states)
        self.query_one("#status", Static).update(self.look.text(t.status_line))
        self.query_one("#replay-moves", Static).update(self.moves_text())
        self.query_one("#replay-play", Chip).update(_("Pause") if self.replay.speed else _("Play"))

    def moves_text(self) -> Text:
        text = Text()
        around = max(2, (max(40, self.size.width) // 11 - 1) // 2)  # one line of the move list
        for step, move, current in self.replay.move_list(around=around):
            text.append(f"{step}. {move}", "reverse bold" if current else "")
            text.append("  ")
        if not self.replay.last:
            text.append(_("No actions in this record."))
        text.append("\n")
        text.append(_("{home}/{end}: start/end · {cards}: hidden cards · {share}: share").format(
            home=keys_text("jump(0)", REPLAY_COMMANDS), end=keys_text("jump(1)", REPLAY_COMMANDS),
            cards=keys_text("hidden", REPLAY_COMMANDS), share=keys_text("share", REPLAY_COMMANDS)), "dim")
        return text

    # ------------------------------------------------------------------ keys
    def action_step(self, by: int) -> None:
        self.stop_playing()
        self.replay.go(self.replay.step + by)
        self.sync()

    def action_jump(self, to_end: int) -> None:
        self.stop_playing()
        self.replay.end() if to_end else self.replay.home()
        self.sync()

    def action_play(self) -> None:
        self.stop_playing(keep_speed=True)
        if self.replay.cycle_speed():
            self.schedule()
        self.sync()

    def schedule(self) -> None:
        delay = self.replay.delay()
        if delay is not None:
            self._timer = self.set_timer(delay, self.tick)

    def tick(self) -> None:
        self._timer = None
        if not self.replay.speed:
            return
        self.replay.forward()
        self.sync()
        self.schedule()

    def stop_playing(self, keep_speed: bool = False) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not keep_speed:
            self.replay.speed = 0

    def action_hidden(self) -> None:
        self.replay.toggle_hidden()
        self.sync()

    def action_play_here(self) -> None:
        self.stop_playing()
        self.post_message(messages.PlayFromHere(self.replay.position_here()))

    def action_race(self) -> None:
        self.stop_playing()
        self.post_message(messages.RaceRecord(self.replay.record))

    def action_share(self) -> None:
        from spider_tui.records import share_line
        from spider_tui.ui.share import copy

        copy(self.app, share_line(self.replay.record))

    def action_review(self) -> None:
        if self.replay.record.won:
            self.replay.table.say(_("This round was won: nothing was lost."))
            self.sync()
        elif self.review is not None:
            self.review(self)

    def action_back(self) -> None:
        self.stop_playing()
        if len(self.app.screen_stack) > 2:
            self.dismiss()
        else:  # opened by spider replay: back to the start screen
            self.post_message(messages.LeaveRound())

    def on_tableau_tapped(self, event: Tableau.Tapped) -> None:
        """A click on the table steps forward (as → does)."""
        self.action_step(1)

    def on_screen_suspend(self) -> None:
        self.stop_playing()

    def on_key(self, event: events.Key) -> None:
        pass
