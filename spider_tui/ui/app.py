"""The Textual app: screens, the save file, and the life of a round (SPEC §5–§8).

Rounds end in one place (``end_round``) and are written to the save file through
``SaveFile.update`` so that two instances at once never lose each other's results.  The
unfinished round is written a moment after each action (and on quit or hang-up), so a
dropped SSH link loses at most that moment.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import random
import signal
from datetime import date
from typing import Callable, Sequence

from textual.app import App
from textual.timer import Timer
from textual.filter import LineFilter, Monochrome, NoColor
from textual.scrollbar import ScrollBar, ScrollBarRender

from spider_tui.safe_text import visible
from spider_tui.store import (
    RoundState,
    SaveError,
    SaveFile,
    default_data,
    daily_dates,
    get_settings,
    is_daily_won,
    set_setting,
)
from spider_tui.store.writer import SaveWriter
from spider_tui.store import today as real_today
from spider_tui.session import SoloSession, playable_rules
from spider_tui.table import Table
from spider_tui.ui.colours import CLOTH, css_variables
from spider_tui.ui.screens.game_screen import GameScreen
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
        self.save = save
        self.launch = launch or Launch()
        self.today = today
        self.rng = rng or random.Random()
        self._load_error: str | None = None
        try:
            self.data = save.load()
        except SaveError as e:  # e.g. the save file is a directory: play on, say so once
            self.data = default_data()
            self._load_error = f"{e} Results of this session can't be kept."
        self._ascii_forced = self.launch.ascii  # --ascii, or a terminal that needs it
        self.look = self.make_look()
        self.writer = SaveWriter(save, on_written=self._written_elsewhere)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._write_failing = False
        self.session = SoloSession(lambda: self.data, self.write, rng=self.rng)
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

    # ------------------------------------------------------------------ data
    @property
    def settings(self):
        """The saved settings; a rules name this version doesn't know (a newer spider wrote it)
        reads as classic here and stays in the file."""
        settings = get_settings(self.data)
        if playable_rules(settings.rules) != settings.rules:
            settings = dataclasses.replace(settings, rules="classic")
        return settings

    @property
    def table(self) -> Table | None:
        """The round on the table (the session's)."""
        return self.session.table

    def load_data(self) -> dict:
        """The file as it is now, with the changes still waiting to be written applied to it."""
        try:
            data = self.save.load()
        except SaveError as e:
            self.tell(str(e))
            return self.data
        for change in self.writer.pending():
            change(data)
        self.data = data
        return self.data

    def take_notice(self) -> str | None:
        return self.save.take_notice()

    def write(self, fn: Callable[[dict], object], after: Callable[[], None] | None = None) -> None:
        """Apply ``fn`` in memory now and to the save file on disk off the UI thread (locked,
        atomic, in order).  A change that can't be written is kept and tried again with the next."""
        fn(self.data)
        self.writer.submit(fn, after)

    def _written_elsewhere(self, data: dict | None, error: SaveError | None) -> None:
        """The writer thread's report: handed to the UI thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._written, data, error)

    def _written(self, data: dict | None, error: SaveError | None) -> None:
        if error is not None:
            if not self._write_failing:
                self._write_failing = True
                message = visible(f"{error} Nothing is lost yet: your results are kept and saved "
                                  f"with the next change (or when you quit).")
                self.notify(message, severity="error", timeout=10, markup=False)
            return
        if self._write_failing:
            self._write_failing = False
            self.notify("The save file could be written again; nothing was lost.", timeout=5, markup=False)
        if data is not None and self.writer.idle:
            self.data = data  # the file as written: it has the other instances' results too

    def tell(self, message: str) -> None:
        if not self._error_told:
            self._error_told = True
            self.notify(visible(message), severity="error", timeout=8, markup=False)

    def saved_round(self) -> RoundState | None:
        """The unfinished round Continue offers: the most recently saved one."""
        found = self.session.saved()
        return None if found is None else found[1]

    def daily_won(self, d: date, suits: int) -> bool:
        return is_daily_won(self.data, d, suits)

    def daily_dates(self) -> list[date]:
        return daily_dates(self.today())

    def set_suits(self, k: int) -> None:
        self.write(lambda d: set_setting(d, "suits", k))

    def set_rules(self, name: str) -> None:
        """The rules menu: remembered, and from now on they stand over the command line's --rules."""
        self.launch.rules = None
        self.write(lambda d: set_setting(d, "rules", name))

    # ------------------------------------------------------------------ display options
    def make_look(self) -> Look:
        """Glyphs and colours from the command line and the remembered display options."""
        s = self.settings
        look = Look(ascii=self._ascii_forced or s.ascii, four_color=self.launch.four_color or s.four_color,
                    color=not self.no_color)
        ScrollBar.renderer = AsciiScrollBarRender if look.ascii else ScrollBarRender
        if self.is_running:
            self.set_class(look.ascii, "-ascii")
        return look

    def set_display(self, name: str, value: bool) -> None:
        """Start screen: Four colours / ASCII, remembered in the save file; the next round uses them."""
        self.write(lambda d: set_setting(d, name, value))
        if name == "ascii":
            self._ascii_forced = False  # the player's word now stands over the terminal guess
        self.look = self.make_look()

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
        if self._load_error:
            self.tell(self._load_error)
        if la.position is not None or la.daily is not None or la.deal is not None or la.suits is not None:
            notice = self.take_notice()  # the start screen shows it otherwise
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
            from spider_tui.ui.screens.start_screen import StartScreen

            self.push_screen(StartScreen())
            if la.server is not None:
                self.open_palast(la.server)

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

            self._winnable = WinnableDeals(self)
        return self._winnable

    def set_winnable_only(self, on: bool) -> None:
        self.write(lambda d: set_setting(d, "winnable_only", on))
        if on:
            self.winnable.prove_ahead(self.settings.suits)

    def start_daily(self, d: date, suits: int | None = None) -> None:
        self.show_round(self.session.daily(d, suits or self.settings.suits))

    def continue_round(self) -> None:
        found = self.session.resume()
        if isinstance(found, str):
            self.notify(visible(found), severity="error", markup=False)
        else:
            self.show_round(found)

    def start_over(self, go: Callable[[], None]) -> None:
        """Start screen New/Daily: with an unfinished round saved, ask first; it then ends and counts."""
        question = self.session.start_over_question()
        if question is None:
            go()
            return
        from spider_tui.ui.widgets.dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.abandon_saved()
                go()

        self.open_dialog(Confirm(question, answered))

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
            self.leave_round()

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

    def show_stats(self) -> None:
        """Stats: over the table during a round (the table stays visible), else a screen."""
        self.load_data()
        if isinstance(self.screen, GameScreen):
            from spider_tui.ui.widgets.dialogs import Stats

            self.open_dialog(Stats(self.data, ascii=self.look.ascii))
            return
        from spider_tui.ui.screens.start_screen import StatsScreen

        self.push_screen(StatsScreen())

    def show_help(self) -> None:
        from spider_tui.ui.widgets.dialogs import Help

        self.open_dialog(Help())

    def open_palast(self, url: str | None = None) -> None:
        """The Palast (SPEC §13): the server and name, then the lobby."""
        from spider_tui.ui.palast.connect import ConnectScreen

        self.push_screen(ConnectScreen(url))

    def quit_app(self) -> None:
        self.store_round()
        self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q, from anywhere: keep the round for Continue, then leave."""
        self.quit_app()

    def leave_round(self) -> None:
        """``q`` (or Esc with nothing held) in a round: back to the start screen; the round is kept
        for Continue (SPEC §7) and its time stops."""
        from spider_tui.ui.screens.start_screen import StartScreen

        self._stop_save_timer()
        self.store_round()
        self.load_data()
        starts = [s for s in self.screen_stack if isinstance(s, StartScreen) or getattr(s, "return_here", False)]
        if starts:
            starts[-1].pop_until_active()
        else:
            self.switch_screen(StartScreen())

    def on_unmount(self) -> None:
        """Every way out keeps the round; the last writes get a moment (the command line waits
        longer, after the terminal is restored)."""
        self.store_round()
        self.writer.flush(timeout=2.0)

    def hang_up(self) -> None:
        """SIGHUP/SIGTERM (a dropped SSH link): keep the round, then leave."""
        self.store_round()
        self.exit()
