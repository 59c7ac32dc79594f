"""The Textual app: screens, the save file, and the life of a round (SPEC §5–§8).

Rounds end in one place (``end_round``) and are written to the save file through
``SaveFile.update`` so that two instances at once never lose each other's results.  The
unfinished round is written a moment after each action (and on quit or hang-up), so a
dropped SSH link loses at most that moment.
"""

from __future__ import annotations

import asyncio
import gc
import random
import signal
from datetime import date
from typing import Callable, Sequence

from textual import on
from textual.app import App
from textual.timer import Timer
from textual.filter import LineFilter, Monochrome, NoColor
from textual.scrollbar import ScrollBar, ScrollBarRender

from spider_tui.safe_text import visible
from spider_tui.store import SaveError, SaveFile
from spider_tui.store import today as real_today
from spider_tui.store.book import SaveBook, playable_rules
from spider_tui.session import SoloSession
from spider_tui.table import Table
from spider_tui.ui import messages
from spider_tui.ui.colours import CLOTH, css_variables
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import StartScreen
from spider_tui.ui.no_color import StripColor
from spider_tui.ui.render import Look
from spider_tui.ui_launch import Launch

class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars of whole cells only: no ▁▂▃ block glyphs in ASCII mode."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


STRIP_COLOR = StripColor()  # NO_COLOR's filter (get_line_filters)
SAVE_DELAY = 1.5  # seconds after the last action before the unfinished round is written


class SpiderApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "spider"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        save: SaveFile,
        launch: Launch | None = None,
        *,
        today: Callable[[], date] = real_today,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.today = today
        self.rng = rng or random.Random()
        self.book = SaveBook(save, on_written=self._written_elsewhere)
        self._ascii_forced = self.launch.ascii  # --ascii, or a terminal that needs it
        self.look = self.make_look()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.session = SoloSession(lambda: self.book.data, self.book.write, rng=self.rng)
        self._save_timer: Timer | None = None
        self._error_told = False
        self._winnable = None

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

    def on_resize(self, event) -> None:
        """The terminal changed size: it may have cleared or reflowed what it showed, so the
        repaint that follows is written whole."""
        wire = getattr(self, "wire", None)
        if wire is not None:
            wire.forget()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The table's colours (``ui/colours.py``) as CSS variables for ``app.tcss``; a theme's
        own variables may replace them."""
        return {**super().get_theme_variable_defaults(), **css_variables(CLOTH)}

    # ------------------------------------------------------------------ the save book
    @property
    def settings(self):
        return self.book.settings

    @property
    def table(self) -> Table | None:
        """The round on the table (the session's)."""
        return self.session.table

    def load_data(self) -> dict:
        """The file as it is now (the book's, with its waiting changes); a read error is said once."""
        data, error = self.book.reload()
        if error is not None:
            self.tell(error)
        return data

    def _written_elsewhere(self, data: dict | None, error: SaveError | None) -> None:
        """The writer thread's report: handed to the UI thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._written, data, error)

    def _written(self, data: dict | None, error: SaveError | None) -> None:
        said = self.book.written(data, error)
        if said is not None:
            severity, text = said
            self.notify(text, severity="error" if severity == "error" else "information",
                        timeout=10 if severity == "error" else 5, markup=False)

    def tell(self, message: str) -> None:
        if not self._error_told:
            self._error_told = True
            self.notify(visible(message), severity="error", timeout=8, markup=False)

    # ------------------------------------------------------------------ display options
    def make_look(self) -> Look:
        """Glyphs and colours from the command line and the remembered display options."""
        s = self.book.settings
        look = Look(ascii=self._ascii_forced or s.ascii, four_color=self.launch.four_color or s.four_color,
                    color=not self.no_color)
        ScrollBar.renderer = AsciiScrollBarRender if look.ascii else ScrollBarRender
        if self.is_running:
            self.set_class(look.ascii, "-ascii")
        return look

    @on(messages.SettingsChanged)
    def settings_changed(self, message: messages.SettingsChanged) -> None:
        """A setting changed on the start screen: Four colours / ASCII make the look again (the
        next round uses it); with "Winnable deals only" on, the prover works at the suit count."""
        if message.name == "rules":
            self.launch.rules = None  # the rules menu's choice now stands over --rules
        elif message.name in ("ascii", "four_color"):
            if message.name == "ascii":
                self._ascii_forced = False  # the player's word now stands over the terminal guess
            self.look = self.make_look()
            if isinstance(self.screen, StartScreen):
                self.screen.show_look(self.look)
        elif message.name in ("suits", "winnable_only") and self.settings.winnable_only:
            self.winnable.prove_ahead(self.settings.suits)

    # ------------------------------------------------------------------ start
    def on_mount(self) -> None:
        self._loop = asyncio.get_running_loop()
        # The command line turns the garbage collector off for a faster first frame (its full
        # pass landed inside the first render); it comes back on once the table is up.
        self.set_timer(0.5, gc.enable)
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, self.hang_up)
        except (NotImplementedError, RuntimeError, ValueError):
            pass
        self.set_class(self.look.ascii, "-ascii")  # ASCII borders (app.tcss)
        la = self.launch
        if self.settings.winnable_only:
            self.winnable.prove_ahead(la.suits or self.settings.suits)
        if self.book.load_error:
            self.tell(self.book.load_error)
        if la.position is not None or la.daily is not None or la.deal is not None or la.suits is not None:
            notice = self.book.take_notice()  # the start screen shows it otherwise
            if notice:
                self.notify(visible(notice), severity="warning", timeout=10, markup=False)
        if la.position is not None:
            self.show_round(self.session.practice(la.position))
        elif la.daily is not None:
            self.start_daily(la.daily, suits=la.suits)
        elif la.deal is not None:
            self.begin_deal(la.deal, la.suits or self.settings.suits)
        elif la.suits is not None:
            self.start_new(suits=la.suits)
        else:
            self.push_screen(self.start_screen())
            if la.server is not None:
                self.open_palast(messages.OpenPalast(la.server))

    def start_screen(self) -> StartScreen:
        return StartScreen(self.book, self.session, self.look, self.today, rules=self.launch.rules)

    def show_round(self, table: Table | None) -> None:
        """Put the session's round ``table`` on screen."""
        if table is None:
            return
        screen = GameScreen(table, self.look, self.session.title)
        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @property
    def rules(self) -> str:
        """The rules a new deal is played under: the command line's, else the setting."""
        return playable_rules(self.launch.rules or self.settings.rules)

    def begin_deal(self, number: int, suits: int) -> None:
        self.show_round(self.session.deal(number, suits, self.rules))

    @on(messages.NewRound)
    def new_round(self, message: messages.NewRound) -> None:
        self.start_new(message.suits)

    def start_new(self, suits: int | None = None) -> None:
        """A new random deal: at ``suits``, else the command line's --suits, else the setting.
        With "Winnable deals only" a number the solver proved winnable (ui/winnable_deals.py)."""
        suits = suits or self.launch.suits or self.settings.suits
        if self.settings.winnable_only and self.winnable.new_deal(suits, self.rules, self.begin_deal):
            return
        self.show_round(self.session.new_round(suits, self.rules))

    @property
    def winnable(self):
        """Proved-winnable deal numbers and their background prover (made when first needed)."""
        if self._winnable is None:
            from spider_tui.ui.winnable_deals import WinnableDeals

            self._winnable = WinnableDeals(self, self.book.save.path.parent, self.rng)
        return self._winnable

    def start_daily(self, d: date, suits: int | None = None) -> None:
        self.show_round(self.session.daily(d, suits or self.settings.suits))

    @on(messages.DailyRound)
    def daily_round(self, message: messages.DailyRound) -> None:
        self.start_daily(message.day)

    @on(messages.ContinueRound)
    def continue_round(self) -> None:
        found = self.session.resume()
        if isinstance(found, str):
            self.notify(visible(found), severity="error", markup=False)
        else:
            self.show_round(found)

    @on(messages.PracticeDeal)
    def practice_deal(self, message: messages.PracticeDeal) -> None:
        """A deal played alone as practice (the Palast's "play it alone")."""
        self.show_round(self.session.begin(Table.new(message.deal, suits=message.suits, rules=message.rules,
                                                     practice=True)))

    def open_dialog(self, dialog) -> None:
        """Show a dialog: over the table when a round is on screen, else on a screen of its own."""
        from spider_tui.ui.widgets.overlay import DialogScreen

        if isinstance(self.screen, GameScreen):
            self.screen.open_dialog(dialog)
        else:
            self.push_screen(DialogScreen(dialog), dialog.done)

    @property
    def dialog(self):
        """The dialog open now (over the table or on its own screen), or None."""
        screen = self.screen
        return getattr(screen, "dialog", None)

    # ------------------------------------------------------------------ the round's life
    def on_game_screen_asks(self, message: GameScreen.Asks) -> None:
        """What the game screen asks for."""
        what = message.what
        if what == "changed":
            self.round_changed()
        elif what == "won":
            self.show_won()
        elif what == "give_up":
            self.ask_give_up()
        elif what in ("retry", "new"):
            self.ask_end_round(what)
        elif what == "stats":
            self.show_stats()
        elif what == "help":
            self.show_help()
        elif what == "leave":
            self.post_message(messages.LeaveRound())

    def round_changed(self) -> None:
        ended = self.session.changed()
        if ended:
            self._stop_save_timer()
        if ended == "won":
            self.show_won()
        elif ended == "keep":
            self._save_timer = self.set_timer(SAVE_DELAY, self.store_round)

    def _stop_save_timer(self) -> None:
        if self._save_timer is not None:
            self._save_timer.stop()

    def show_won(self) -> None:
        """The Won panel (again: Enter on a won table brings it back)."""
        from spider_tui.ui.widgets.dialogs import Won

        t = self.table
        if t is not None and t.won and not isinstance(self.dialog, Won):
            self.open_dialog(Won(t.moves, t.seconds, t.hints_used, self.session.title, t.game.score,
                                 done=self._after_won))

    def _after_won(self, choice: str | None) -> None:
        if choice == "new":
            self.start_new()
        elif choice == "retry":
            self.retry()
        elif choice == "stats":
            self.show_stats()

    def end_round(self, won: bool) -> None:
        """The round ends (won, or left by New/Retry): record it once and forget the saved copy."""
        self._stop_save_timer()
        self.session.end(won)

    def store_round(self) -> None:
        """Write the unfinished round for Continue (without undo history)."""
        self.session.keep()

    def ask_end_round(self, kind: str) -> None:
        """Retry or New; asks first when a round is in progress (SPEC §6)."""
        go = self.retry if kind == "retry" else self.start_new
        if not self.session.needs_asking():
            self.session.leave()
            go()
            return
        from spider_tui.ui.widgets.dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.end_round(won=False)
                go()

        self.open_dialog(Confirm(self.session.end_question(kind), answered))

    def ask_give_up(self) -> None:
        """Give up (SPEC §10): ends the round as lost, after a confirm."""
        t = self.table
        if t is None or t.over:
            return
        from spider_tui.ui.widgets.dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes and self.session.table is t:
                self._stop_save_timer()
                if self.session.give_up() and isinstance(self.screen, GameScreen):
                    self.screen.sync()

        self.open_dialog(Confirm(self.session.give_up_question(), answered))

    def retry(self) -> None:
        self.show_round(self.session.retry(self.rules))

    @on(messages.ShowStats)
    def show_stats(self) -> None:
        """Stats: over the table during a round (the table stays visible), else a screen."""
        data = self.load_data()
        if isinstance(self.screen, GameScreen):
            from spider_tui.ui.widgets.dialogs import Stats

            self.open_dialog(Stats(data, ascii=self.look.ascii))
            return
        from spider_tui.ui.screens.start_screen import StatsScreen

        self.push_screen(StatsScreen(data, ascii=self.look.ascii))

    @on(messages.ShowHelp)
    def show_help(self) -> None:
        from spider_tui.ui.widgets.dialogs import Help

        self.open_dialog(Help(self.look))

    @on(messages.OpenPalast)
    def open_palast(self, message: messages.OpenPalast) -> None:
        """The Palast (SPEC §13): the server and name, then the lobby."""
        from spider_tui.ui.palast.connect import ConnectScreen

        self.push_screen(ConnectScreen(self.book, self.look, message.url))

    @on(messages.QuitApp)
    def quit_app(self) -> None:
        self.store_round()
        self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q, from anywhere: keep the round for Continue, then leave."""
        self.quit_app()

    @on(messages.LeaveRound)
    def leave_round(self) -> None:
        """``q`` (or Esc with nothing held) in a round: back to where the round was started from
        (the start screen, or the Palast's for its "play it alone"); the round is kept for
        Continue (SPEC §7) and its time stops."""
        self._stop_save_timer()
        self.store_round()
        self.load_data()
        if len(self.screen_stack) > 2:  # [the default screen, where it started from, the round]
            self.pop_screen()
        else:
            self.switch_screen(self.start_screen())

    def on_unmount(self) -> None:
        """Every way out keeps the round; the last writes get a moment (the command line waits
        longer, after the terminal is restored)."""
        self.store_round()
        self.book.flush(timeout=2.0)

    def hang_up(self) -> None:
        """SIGHUP/SIGTERM (a dropped SSH link): keep the round, then leave."""
        self.store_round()
        self.exit()
