"""The Textual app: plumbing and navigation (SPEC §5–§8).

It holds the save book (``store/book.py``), the solo session and the look, starts what the
command line asks for, and answers the screens' messages (``ui/messages.py``): which round goes
on the table (``ui/round_starts.py``), which screen comes next; keys typed while a screen
changes wait for the next one (``ui/key_hold.py``). A round's own life (its questions, keeping it a moment
after each action) is the game screen's; the app keeps the round on quit or hang-up too.
"""

from __future__ import annotations

import asyncio
import gc
import random
import signal
from datetime import date
from typing import TYPE_CHECKING, Callable

from textual import events, on

from spider_tui.i18n import choose, set_language
from spider_tui.safe_text import visible
from spider_tui.store import SaveError, SaveFile
from spider_tui.store import today as real_today
from spider_tui.store.book import SaveBook
from spider_tui.session import SoloSession
from spider_tui.ui import messages
from spider_tui.ui.key_hold import KeyHold
from spider_tui.ui.round_starts import RoundStarts
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.records_nav import RecordsNav
from spider_tui.ui.render import Look
from spider_tui.ui.terminal_app import TerminalApp
from spider_tui.ui_launch import Launch

if TYPE_CHECKING:
    from spider_tui.palast.embedded import EmbeddedPalast
    from spider_tui.records import Record
    from spider_tui.store.records import RecordStore
    from spider_tui.ui.screens.start_screen import StartScreen
    from spider_tui.lessons.session import LessonSession
    from spider_tui.table import Table


class SpiderApp(RecordsNav, RoundStarts, TerminalApp):
    CSS_PATH = "app.tcss"
    TITLE = "spider"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, save: SaveFile, launch: Launch | None = None, *,
                 today: Callable[[], date] = real_today, rng: random.Random | None = None) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.today = today
        self.rng = rng or random.Random()
        self.book = SaveBook(save, on_written=self._written_elsewhere)
        # The language (SPEC §17): --lang, else the one chosen on the start screen, else the locale.
        set_language(choose(self.launch.lang, self.book.settings.language or None))
        self._here: EmbeddedPalast | None = None  # the Palast on this computer, when asked for
        self._ascii_forced = self.launch.ascii  # --ascii, or a terminal that needs it
        self.look = self.make_look()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._records: RecordStore | None = None
        self.session = SoloSession(lambda: self.book.data, self.book.write, rng=self.rng,
                                   keep_record=self.keep_record)
        self._lessons: LessonSession | None = None
        self._error_told = False
        self._winnable = None
        self.key_hold = KeyHold(self)

    # ------------------------------------------------------------------ the save book
    @property
    def settings(self):
        return self.book.settings

    @property
    def records(self) -> RecordStore:
        """The ``records/`` directory, made on first use (SPEC §11's start: the first frame
        doesn't need it)."""
        if self._records is None:
            from spider_tui.store.records import RecordStore

            self._records = RecordStore(self.book.save.path.parent)
        return self._records

    @property
    def here(self) -> EmbeddedPalast:
        """The Palast on this computer (SPEC §13), made on first use (the first frame doesn't
        need it: SPEC §11's start)."""
        if self._here is None:
            from spider_tui.palast.embedded import EmbeddedPalast

            self._here = EmbeddedPalast(self.book.save.path.parent)
        return self._here

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

    def keep_record(self, record: Record) -> None:
        """A finished round's record to ``records/`` (called on the save writer's thread); one
        that can't be written is said, and nothing else changes (SPEC §16)."""
        from spider_tui.store.records import RecordsError

        try:
            self.records.add(record)
        except RecordsError as e:
            said, loop = visible(str(e)), self._loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(lambda: self.notify(said, severity="warning", timeout=8, markup=False))

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
        self.ascii_borders(look.ascii)
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
            from spider_tui.ui.screens.start_screen import StartScreen  # loaded: it sent this

            if isinstance(self.screen, StartScreen):
                self.screen.show_look(self.look)
        elif message.name == "language":
            # The start screen's choice (SPEC §17): spoken from now on; the start screen is made
            # again so that every text on it reads in the new language.
            self.launch.lang = None
            set_language(choose(None, self.settings.language or None))
            from spider_tui.ui.screens.start_screen import StartScreen

            if isinstance(self.screen, StartScreen):
                self.switch_screen(self.start_screen())
        elif message.name in ("suits", "winnable_only") and self.settings.winnable_only:
            self.winnable.prove_ahead(self.settings.suits)

    # ------------------------------------------------------------------ keys across a screen change
    def hold_keys(self) -> None:
        """A screen asked for another one (``ui.keys.KeysFollow``), or the app is starting: the
        keys typed until that screen is up wait for it (``ui/key_hold.py``)."""
        self.key_hold.start()

    async def on_event(self, event: events.Event) -> None:
        """A key the hold takes goes no further for now: one just typed, or one on its way back
        from the screen to the bindings (sent there before the hold began, as ``?`` after ``n``)."""
        if isinstance(event, events.Key) and self.key_hold.take(event):
            return
        await super().on_event(event)

    # ------------------------------------------------------------------ start
    def on_mount(self) -> None:
        self._loop = asyncio.get_running_loop()
        # The command line turns the garbage collector off for a faster first frame (its full
        # pass landed inside the first render); it comes back on once the table is up.
        self.set_timer(0.5, gc.enable)
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, self.quit_app)  # a dropped SSH link: keep the round
        except (NotImplementedError, RuntimeError, ValueError):
            pass
        self.set_class(self.look.ascii, "-ascii")  # ASCII borders (app.tcss)
        # The first screen comes once Textual's start-up is over.  Pushed from here, inside its
        # start-up batch, it was laid out before its footer's keys were mounted and painted
        # twice: first without the footer and the cloth between the columns, then whole
        # (~25 ms later: SPEC §11's start budget).  Keys typed meanwhile wait for it.
        self.hold_keys()
        self.call_later(self.start_first)

    def start_first(self) -> None:
        """Put up what the command line asks for: a round, or the start screen."""
        la = self.launch
        if self.settings.winnable_only:
            self.winnable.prove_ahead(la.suits or self.settings.suits)
        if self.book.load_error:
            self.tell(self.book.load_error)
        if la.position is not None or la.daily is not None or la.deal is not None or la.suits is not None:
            notice = self.book.take_notice()  # the start screen shows it otherwise
            if notice:
                self.notify(visible(notice), severity="warning", timeout=10, markup=False)
        if la.replay is not None or la.ghost is not None:  # spider replay / --ghost: a checked record
            self.open_replay(la.replay) if la.replay is not None else self.race(la.ghost)
        elif la.position is not None:
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
        # Imported here: a round started from the command line never shows it (SPEC §11's start).
        from spider_tui.ui.screens.start_screen import StartScreen

        return StartScreen(self.book, self.session, self.look, self.today, rules=self.launch.rules)

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

    def store_round(self) -> None:
        """Keep the unfinished solo round for Continue (without undo history)."""
        self.session.keep()

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
    def show_help(self, message: messages.ShowHelp | None = None) -> None:
        from spider_tui.ui.widgets.dialogs import Help

        self.open_dialog(Help(self.look, section=message.section if message is not None else None))

    @on(messages.OpenPalast)
    def open_palast(self, message: messages.OpenPalast) -> None:
        """The Palast (SPEC §13): the server and name, then the lobby."""
        from spider_tui.ui.palast.connect import ConnectScreen

        self.push_screen(ConnectScreen(self.book, self.look, message.url, here=self.here))

    @on(messages.QuitApp)
    def quit_app(self) -> None:
        """Quit, or SIGHUP/SIGTERM (a dropped SSH link): keep the round, then leave."""
        self.store_round()
        self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q, from anywhere: keep the round for Continue, then leave."""
        self.quit_app()

    @on(messages.LeaveRound)
    def leave_round(self) -> None:
        """``q`` (or Esc with nothing held) in a round (which kept itself): back to where it was
        started from (the start screen, or the Palast's for its "play it alone")."""
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
        if self._here is not None:
            self._here.stop(wait=False)  # the embedded Palast stops with the app

