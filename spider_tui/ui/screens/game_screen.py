"""The table screen: ten columns, the bars, the status line.  Thin: every decision is Table's.

It runs one round through the ``Session`` face whatever kind it is (solo, or a Palast race):
after each action it tells the session and acts on the answer (the Won panel, keeping the
unfinished round a moment later); it asks the Give up / Retry / New questions the session words
and offers only what the session offers. What is beyond the round (a new deal, the stats, the
way back) it posts up as a message (``ui/messages.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from spider_tui.commands import COLUMN_KEYS, COLUMN_KEYS_TEXT, JOKER_KEY, command, round_key_commands
from spider_tui.i18n import N_, _, ngettext
from spider_tui.session import Offer, Session
from spider_tui.table import Table
from spider_tui.ui import messages
from spider_tui.ui.keys import KeysFollow, bindings
from spider_tui.ui.question import SolverQuestion
from spider_tui.ui.render import Look, points_style
from spider_tui.ui.widgets import Chip, Tableau
from spider_tui.ui.widgets.footer import Footer

MIN_WIDTH, MIN_HEIGHT = 40, 20
COMPACT_BELOW = 80  # from MIN_WIDTH up to here the compact table (SPEC §17): 4-cell columns, bars on two lines
SAVE_DELAY = 1.5  # seconds after the last action before the unfinished round is kept


class GameScreen(KeysFollow, Screen):
    """One round: the session's table, run through the session (see the module doc)."""

    BINDINGS = bindings(round_key_commands())
    #: Each key's table action (``u`` -> ``undo``): a key the session refuses with a reason says it.
    TABLE_KEYS = {key: c.action.removeprefix("table('").removesuffix("')")
                  for c in round_key_commands() if c.action.startswith("table('") for key in c.keys.split(",")}
    NEW_LABEL = N_("New")  #: the footer's and the top bar's word for New

    def __init__(self, session: Session, look: Look) -> None:
        super().__init__()
        assert session.table is not None
        self.session = session
        self.table: Table = session.table
        self.look = look
        self.title_text = session.title
        self._save_timer: Timer | None = None
        self._shown_version = -1
        self._enabled: tuple | None = None
        self._shown: dict[str, object] = {}
        self._tap_moved = False
        self.dialog = None  # the dialog open over the table, if any
        self._press: tuple[int, int | None] | None = None  # (column, card) where a drag may begin
        self._dragging = False  # a drag left its column: the group is lifted
        self._peek_pending = False  # v was pressed: the next column key shows that column whole
        self._peek_asked = -1  # the table's version when v asked which column
        self._resumed = False  # shown once already (see _on_screen_resume)
        self.question = SolverQuestion(
            self.table, tell=self.tell, confirm=self.confirm,
            practice=self.became_practice, to_ui=lambda *call: self.app.call_from_thread(*call),
            changed=self.sync)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        # Every bar is composed with its text and state, so the first frame is the whole table
        # and the first sync changes nothing (a second full paint at start cost time and bytes).
        t, g = self.table, self.table.game
        info, moves, done = self._shown["#info"], self._shown["#moves"], self._shown["#done"] = self.bar_texts()
        status = self._shown["#status"] = self.look.text(t.status_line)
        with Horizontal(id="top"):
            yield Static(info, id="info", markup=False)
            yield Static(moves, id="moves", markup=False)
            yield Static("", id="topfill", markup=False)
            offers = self.session.offers
            retry, new = Chip(_("Retry"), "retry", id="retry"), Chip(_(self.NEW_LABEL), "new", id="new")
            retry.display, new.display = Offer.RETRY in offers, Offer.NEW in offers
            yield retry
            yield new
        with Horizontal(id="stockrow"):
            # Composed with its text, so the first sync has no layout change to make.
            stock = self._shown["#stock"] = self.deals_text()
            spent = "-spent" if g.deal_refusal() is not None else None
            yield Chip(stock, "table('deal')", id="stock", classes=spent)
            yield Static(done, id="done", markup=False)
            if t.has("joker"):  # a chip: a click plays a joker as J does
                jokers = self._shown["#jokerchip"] = self.joker_text()
                yield Chip(jokers, "table('joker')", id="jokerchip")
        # Each column knows its cards from the start: the first frame shows the table.
        yield Tableau(self.look, self.table.column_states(), compact_on="-compact")
        with Horizontal(id="bottom"):
            if t.has("undo"):  # Undo off: no Undo to offer
                yield Chip(_("Undo"), "table('undo')", id="undo", classes=None if g.can_undo else "-disabled")
            yield Chip(_("Hint"), "table('hint')", id="hintchip", classes="-disabled" if t.over else None)
            giveup = Chip(_("Give up"), "give_up", id="giveupchip")  # mouse players can give up too
            giveup.display = not t.over
            yield giveup
            yield Static(status, id="status", markup=False)
        yield Footer()
        # The too-small notice (#toosmall) is mounted by check_size when first needed.
        # Dialogs are mounted in here: a one-cell host on its own layer (its children draw over
        # the whole screen), so mounting one repaints that cell and the dialog, not the screen.
        yield Container(id="dialogs")

    def on_mount(self) -> None:
        self._enabled = self.key_states()  # the footer composes with these already: no rebuild
        self.check_size(*self.app.size)
        self.sync()
        if self.table.game.rules.countdown is not None:
            self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """Timed rounds: show the countdown; at zero the round ends as lost."""
        if self.table.check_time():
            self.after()
        else:
            self.show_info()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Shown the first time: every widget was styled as it was mounted a moment ago, so
        # Textual's restyle of the whole screen on resume would only repeat it (SPEC §11's start).
        # Runs before Screen's own handler (Textual calls each class's, most derived first).
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_screen_resume(self) -> None:
        if not self.has_class("-small"):
            self.table.resume()
        self.sync()

    def on_screen_suspend(self) -> None:
        self.table.pause()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        """Too small a terminal: say the size needed; play resumes when it grows."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(width < COMPACT_BELOW, "-compact")
        if small != self.has_class("-small"):
            self.set_class(small, "-small")
            self.refresh_bindings()
        if small:
            text = self.look.text(_("spider needs a terminal of at least {w}×{h}.").format(w=MIN_WIDTH, h=MIN_HEIGHT) + "\n"
                                  + _("This one is {w}×{h}. Make it bigger to play on.").format(w=width, h=height) + "\n"
                                  + _("q: menu, Ctrl+Q: quit"))
            found = self.query("#toosmall").results(Static)
            notice = next(found, None)
            if notice is None:  # made the first time it is needed (one widget less at start)
                self.mount(Static(text, id="toosmall", markup=False), before=self.query_one("#dialogs"))
            else:
                notice.update(text)
            self.table.pause()
        elif self.is_current:
            self.table.resume()

    # ------------------------------------------------------------------ drawing
    def sync(self) -> None:
        """Show the table's state; only widgets whose content changed repaint."""
        t = self.table
        if t.version == self._shown_version:
            return
        self._shown_version = t.version
        g = t.game
        # One handler: Textual paints once after it returns, so no batch_update is needed (an open
        # batch at the first paint made Textual throw that frame away).
        states = t.column_states()
        self.query_one(Tableau).show(states)
        self.show_info()
        hint_deal = t.hint_move is not None and t.hint_move.is_deal
        self.put("#stock", f"{self.look.marks['hint_to']} {self.deals_text()}" if hint_deal else self.deals_text())
        stock = self.query_one("#stock", Chip)
        # Muted while the stock can't deal (the engine's one answer); still clickable: it says why.
        stock.set_class(g.deal_refusal() is not None, "-spent")
        stock.set_class(hint_deal, "-hint")  # the hint's target: marker and colour
        for undo in self.query("#undo").results(Chip):
            undo.set_class(not g.can_undo, "-disabled")
        self.query_one("#hintchip", Chip).set_class(t.over, "-disabled")
        self.query_one("#giveupchip", Chip).display = not t.over
        for joker in self.query("#jokerchip").results(Chip):
            self.put("#jokerchip", self.joker_text())
            joker.set_class(t.over or not g.jokers_left, "-disabled")
        # The status line wraps when the terminal is narrow (never cut); only then does the
        # layout change (and the table repaint).
        width = max(1, self.query_one("#status", Static).content_region.width)
        before = self._shown.get("#status", "")
        status = self.look.text(t.status_line)
        self.put("#status", status, layout=len(status) > width or len(str(before)) > width)
        enabled = self.key_states()
        if enabled != self._enabled:  # the footer recomposes on refresh_bindings: only when needed
            self._enabled = enabled
            self.refresh_bindings()

    def key_states(self) -> tuple:
        """What check_action depends on.  Undo's key stays lit (the Undo chip shows when it can
        act): the footer rebuilds itself on refresh_bindings, ~50 ms and ~15 KB, too much for
        every first move."""
        return (self.table.over, self.table.game.jokers_left)

    def bar_texts(self) -> tuple[str, str, Text]:
        """The top bar's round name, its move count, and the stock row's tally."""
        g = self.table.game
        parts = [self.title_text, ngettext("{n} suit", "{n} suits", g.suits).format(n=g.suits)]
        if g.rules.name != "classic":
            parts.append(g.rules.name)
        return f" {self.look.marks['sep']} ".join(parts), _("Moves: {n}").format(n=g.moves), self.done_text()

    def deals_text(self) -> str:
        """The stock's chip: the deals left."""
        return _("Deals: {n}").format(n=self.table.game.deals_left)

    def show_info(self) -> None:
        info, moves, done = self.bar_texts()
        # The bar's width follows its text (width: auto): a longer or shorter title ("· practice"
        # after asking the solver) needs a new layout, or it is cut to the old width.
        old = self._shown.get("#info")
        self.put("#info", info, layout=old is None or cell_len(str(old)) != cell_len(info))
        # The move count has a widget of its own: a move repaints these few cells only.
        self.put("#moves", moves, layout=False)
        self.put("#done", done, layout=False)

    def put(self, selector: str, content, layout: bool = True) -> None:
        """Update a bar's text only when it changed (every repaint is bytes on the wire)."""
        widget = self.query_one(selector, Static)
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            widget.update(content, layout=layout)

    def joker_text(self) -> str:
        return _("Jokers: {n} ({key})").format(n=self.table.game.jokers_left, key=JOKER_KEY)

    def done_text(self) -> Text:
        g = self.table.game
        earned = self.table.earned  # a scored round: the last action's points, where earned
        on_slot = {e.slot: e.text for e in earned if e.where == "run"}
        text = Text(" " + _("Runs") + " ")
        for i in range(g.runs_to_win):
            if i < len(g.done):
                suit = g.done[i]
                style = f"bold {self.look.suit_color(suit)} on {self.look.palette.face}" if self.look.color else "bold"
                text.append(self.look.suits[suit], style)
            else:
                text.append(self.look.marks["slot"], "dim")
            if i in on_slot:
                text.append(on_slot[i], points_style(on_slot[i], Style(), self.look, bar=True))
            text.append(" ")
        t = self.table
        if g.score is not None:
            text.append("  " + _("Score: {n}").format(n=g.score))
            for e in earned:
                if e.where == "bar":
                    text.append("  ")
                    text.append(e.text, points_style(e.text, Style(), self.look, bar=True))
        left = t.time_left
        if left is not None:
            m, sec = divmod(int(left + 0.999), 60)
            text.append("  " + _("Time left: {time}").format(time=f"{m}:{sec:02d}"), "bold" if left < 60 else "")
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The session's answer (``Session.can``) as Textual wants it: yes lit, a dimmed no greyed,
        any other no hidden (a no with a reason still says it when its key is pressed: ``on_key``)."""
        if self.has_class("-small") and action not in ("help", "stats", "leave", "escape"):
            return False  # the table is hidden: no move may be made blind
        answer = self.session.can(str(parameters[0]) if action == "table" and parameters else action)
        return True if answer else (None if answer.dimmed else False)

    # ------------------------------------------------------------------ dialogs over the table
    def open_dialog(self, dialog) -> None:
        """Draw ``dialog`` over the table (centred); the table stays visible and its time stops."""
        if self.dialog is not None:
            self.dialog.close(None)
        width, height = self.size
        w, h = dialog.want_size(width, height)
        dialog.styles.width, dialog.styles.height = w, h
        dialog.styles.offset = ((width - w) // 2, max(0, (height - h) // 2))
        self.dialog = dialog
        self.table.pause()
        self.dim(True)
        self.query_one("#dialogs", Container).mount(dialog)

    def dim(self, on: bool) -> None:
        """The table behind a dialog stays visible, muted (cards and bars in one grey)."""
        self.set_class(on, "-dim")
        self.query_one(Tableau).dim(on)

    def close_dialog(self, dialog, result) -> None:
        if dialog is self.dialog:
            self.dialog = None
            self.dim(False)
        dialog.remove()
        if self.is_current and not self.has_class("-small"):
            self.table.resume()
        if dialog.done is not None:
            self.call_later(dialog.done, result)

    def on_key(self, event: events.Key) -> None:
        """With a dialog open every key is the dialog's (Ctrl+Q still quits).  A table key the
        session refuses with a reason (``u`` under Undo off) says why rather than doing nothing."""
        refused = self.session.can(self.TABLE_KEYS[event.key]) if event.key in self.TABLE_KEYS else None
        if self.dialog is not None:
            event.stop()
            event.prevent_default()
            self.dialog.press(event.key)
        elif refused is not None and not refused and refused.reason and not self.has_class("-small"):
            event.stop()
            self.table.say(refused.reason)
            self.sync()
        elif self._peek_pending and event.key not in COLUMN_KEYS and event.key != "v":
            self._peek_pending = False  # v then something else: never mind

    def check_dialog(self) -> bool:
        return self.dialog is not None

    # ------------------------------------------------------------------ the round's life
    def after(self) -> None:
        """After every action: show it, tell the session, act on its answer."""
        self.sync()
        self.round_changed()

    def round_changed(self) -> None:
        ended = self.session.changed()
        if ended:
            self.stop_save_timer()
        if ended == "won":
            self.show_won()
        elif ended == "keep":
            self._save_timer = self.set_timer(SAVE_DELAY, self.session.keep)

    def stop_save_timer(self) -> None:
        if self._save_timer is not None:
            self._save_timer.stop()

    def confirm(self, question: str, answered: Callable[[object], None]) -> None:
        """Ask ``question`` over the table; ``answered(yes)`` is called with the answer."""
        # The dialogs are imported when one opens: the first frame doesn't need them (SPEC §11).
        from spider_tui.ui.widgets.dialogs import Confirm

        self.open_dialog(Confirm(question, answered))

    def show_won(self) -> None:
        """The Won panel (again: Enter on a won table brings it back)."""
        from spider_tui.ui.widgets.dialogs import Won

        t = self.table
        if t.won and not isinstance(self.dialog, Won) and Offer.NEW in self.session.offers:
            self.open_dialog(Won(t.moves, t.seconds, t.hints_used, self.session.title, t.game.score,
                                 done=self._after_won))

    def _after_won(self, choice: str | None) -> None:
        if choice == "new":
            self.leave_for(messages.NewRound())
        elif choice == "retry":
            self.leave_for(messages.RetryRound())
        elif choice == "stats":  # s over Won!: the footer offers it
            self.post_message(messages.ShowStats())
        elif choice == "share":  # x over Won!
            self.action_share()

    def action_ghost_last(self) -> None:
        """t after a Retry, before the first move: race the last try as a ghost (SPEC §16)."""
        last = getattr(self.session, "last_try", None)
        if last is None or self.table.moves:
            self.table.say(_("No last try to race: t works after a Retry, before the first move."))
            self.sync()
            return
        self.post_message(messages.RaceRecord(last, _("last try")))

    def action_share(self) -> None:
        """x after a round: its spoiler-free line to the clipboard (OSC 52), and shown (SPEC §16)."""
        record = getattr(self.session, "last_record", None)
        if not self.table.over or record is None:
            self.table.say(_("Share works once the round is over: x then copies a line without a single move."))
            self.sync()
            return
        from spider_tui.records import share_line
        from spider_tui.ui.share import copy

        copy(self.app, share_line(record))

    def action_give_up(self) -> None:
        """Give up (SPEC §10): ends the round as lost, after a confirm."""
        t, session = self.table, self.session
        if t.over:
            return

        def answered(yes: object) -> None:
            if yes and session.table is t:
                self.stop_save_timer()
                if session.give_up():
                    self.sync()

        self.confirm(session.give_up_question(), answered)

    def end_round(self, kind: str) -> None:
        """Retry or New, where the session offers them; asks first when a round is in progress
        (SPEC §6), and then the round ends and counts."""
        if kind not in self.session.offers:
            return
        start = messages.RetryRound() if kind == "retry" else messages.NewRound()
        if not self.session.needs_asking():
            self.session.leave()
            self.leave_for(start)  # the keys typed after n wait for the next round's screen
            return

        def answered(yes: object) -> None:
            if yes:
                self.stop_save_timer()
                self.session.end(won=False)
                self.leave_for(start)

        self.confirm(self.session.end_question(kind), answered)

    def action_retry(self) -> None:
        self.end_round("retry")

    def action_new(self) -> None:
        self.end_round("new")

    # ------------------------------------------------------------------ input

    def on_click(self, event: events.Click) -> None:
        """A tap outside every column (the gap, the top bar, the runs slots: whatever doesn't
        take the click itself) puts the held cards back (seed 004: a wrong tap clears)."""
        t = self.table
        if self.dialog is None and t.selection is not None:
            t.clear()
            self.after()

    def on_tableau_tapped(self, message: Tableau.Tapped) -> None:
        if self.dialog is not None:
            return  # a click beside a dialog does nothing to the table
        t = self.table
        if message.double:
            if self._tap_moved:
                return  # the first click of this double click already made a move
            t.double_tap(message.column, message.index)
        else:
            moves = t.moves
            t.tap(message.column, message.index)
            self._tap_moved = t.moves != moves
        self.after()

    def action_column(self, col: int) -> None:
        if self._peek_pending:
            self._peek_pending = False
            self.show_column(col)
            return
        self.table.key_column(col)
        self.after()

    def action_peek(self) -> None:
        """v: the next column key shows that column whole; after a round not won, the review."""
        record = getattr(self.session, "last_record", None)
        if self.table.over and not self.table.won and record is not None:
            self.post_message(messages.ReviewRound(record))
            return
        self._peek_pending = True
        self.table.say(self.peek_question())
        self._peek_asked = self.table.version  # the status line asks until the table changes
        self.sync()

    @staticmethod
    def peek_question() -> str:
        return _("View which column? Press its key ({keys}).").format(keys=COLUMN_KEYS_TEXT)

    def show_column(self, col: int) -> None:
        from spider_tui.ui.widgets.peek import ColumnPeek

        g = self.table.game
        if not 0 <= col < len(g.columns):
            return
        if self.table.version == self._peek_asked:  # the question is still on the status line
            self.table.say("")
            self.sync()
        self.open_dialog(ColumnPeek(col, g.columns[col], g.down[col], self.look))

    def on_tableau_peek(self, message: Tableau.Peek) -> None:
        if self.dialog is None:
            self.show_column(message.column)

    def on_tableau_pressed(self, message: Tableau.Pressed) -> None:
        g = self.table.game
        col, index = message.column, message.index
        face_up = index is not None and g.down[col] <= index < len(g.columns[col])
        self._press = (col, index) if face_up and self.dialog is None else None

    def on_tableau_dragged(self, message: Tableau.Dragged) -> None:
        """A drag has left the card's column: lift the group there now, its targets marked
        (SPEC §5), so the player sees what moves and where it can go before letting go."""
        press = self._press
        if press is None or message.column == press[0] or self.dialog is not None or self._dragging:
            return
        self._dragging = True
        self.table.lift(press[0], press[1])
        self.sync()

    def on_tableau_released(self, message: Tableau.Released) -> None:
        """A drag: pressed on a face-up card, released over another column = the same move as
        two clicks (a drag that ends on its own column is a click, handled as one)."""
        press, self._press = self._press, None
        self._dragging = False
        if press is None or press[0] == message.column or self.dialog is not None:
            return
        self.table.drag(press[0], press[1], message.column)
        self._tap_moved = True
        self.after()

    def action_cursor(self, dcol: int, drow: int) -> None:
        self.table.move_cursor(dcol, drow)
        self.sync()

    def action_table(self, name: str) -> None:
        """Run a Table command (pick_or_put, best_move, deal, undo, hint, clear, joker) and show the result."""
        if name == "best_move" and self.table.won:
            self.show_won()
            return
        getattr(self.table, name)()
        self.after()

    def action_still_winnable(self) -> None:
        if Offer.STILL_WINNABLE in self.session.offers:
            self.question.ask()

    def tell(self, text: str, timeout: float | None = None) -> None:
        """A line for the player (a notification; never markup)."""
        if timeout is None:
            self.notify(text, markup=False)
        else:
            self.notify(text, markup=False, timeout=timeout)

    def became_practice(self) -> None:
        """The round became practice (the solver was asked): say so; the session hears it."""
        practice = _("practice")
        if practice not in self.title_text:
            self.title_text += f" · {practice}"
        self.show_info()
        self.round_changed()

    def on_unmount(self) -> None:
        self.stop_save_timer()
        self.question.cancel()

    def action_stats(self) -> None:
        self.post_message(messages.ShowStats())

    def action_help(self) -> None:
        self.post_message(messages.ShowHelp())

    def action_escape(self) -> None:
        """Esc drops what is held (a group, the hint, a joker); with nothing held it leaves."""
        t = self.table
        if t.selection is not None or t.hint_move is not None or t.joker_pending:
            self.action_table("clear")
        else:
            self.action_leave()

    def action_leave(self) -> None:
        """Back to where the round was started from; the round is kept for Continue."""
        self.stop_save_timer()
        self.session.keep()
        self.leave_for(messages.LeaveRound())


class NextRoundScreen(GameScreen):
    """A round whose New brings the next of a series (a lesson's): its n and its chip say Next.
    Textual merges a subclass's binding for a key over its base's, so only the word differs."""

    BINDINGS = bindings([command("new")._replace(label=N_("Next"))])
    NEW_LABEL = N_("Next")


def round_screen(session: Session, look: Look) -> GameScreen:
    """The table screen for the session's kind of round."""
    return (NextRoundScreen if session.next_round else GameScreen)(session, look)
