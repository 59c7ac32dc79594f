"""The Textual app: plumbing and navigation (SPEC §5–§8).

It holds the save book (``store/book.py``), the solo session and the look, starts what the
command line asks for, and answers the screens' messages (``ui/messages.py``): which round goes
on the table, which screen comes next. A round's own life (its questions, keeping it a moment
after each action) is the game screen's; the app keeps the round on quit or hang-up too.
"""

from __future__ import annotations

import asyncio
import gc
import random
import signal
import time
from datetime import date
from typing import TYPE_CHECKING, Callable

from textual import events, on

from spider_tui.i18n import choose, set_language
from spider_tui.palast.embedded import EmbeddedPalast
from spider_tui.i18n import _
from spider_tui.safe_text import visible
from spider_tui.store import SaveError, SaveFile
from spider_tui.store import today as real_today
from spider_tui.store.book import SaveBook, playable_rules
from spider_tui.store.records import RecordsError, RecordStore
from spider_tui.records import Record
from spider_tui.session import SoloSession
from spider_tui.table import Table
from spider_tui.ui import messages
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.records_nav import RecordsNav
from spider_tui.ui.render import Look
from spider_tui.ui.terminal_app import TerminalApp
from spider_tui.ui_launch import Launch

if TYPE_CHECKING:
    from spider_tui.ui.screens.start_screen import StartScreen
    from spider_tui.lessons.session import LessonSession


class SpiderApp(RecordsNav, TerminalApp):
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
        self.here = EmbeddedPalast(self.book.save.path.parent)  # the Palast on this computer, when asked for
        self._ascii_forced = self.launch.ascii  # --ascii, or a terminal that needs it
        self.look = self.make_look()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.records = RecordStore(self.book.save.path.parent)
        self.session = SoloSession(lambda: self.book.data, self.book.write, rng=self.rng,
                                   keep_record=self.keep_record)
        self._lessons: LessonSession | None = None
        self._error_told = False
        self._winnable = None

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

    def keep_record(self, record: Record) -> None:
        """A finished round's record to ``records/`` (called on the save writer's thread); one
        that can't be written is said, and nothing else changes (SPEC §16)."""
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
    _key_hold: list | None = None  # the keys held for the screen that is coming
    _hold_from: tuple = ()  # (the screen they were held from, since when)
    HOLD_SECONDS = 1.0

    def hold_keys(self) -> None:
        """A screen asked for another one (``ui.keys.KeysFollow``), or the app is starting: the
        keys typed until that screen is up wait, then go to it in order (they went to the old
        screen: n then ? typed fast opened the start screen's help instead of the round's hint)."""
        if self._key_hold is not None:
            return
        held: list = []
        self._key_hold, self._hold_from = held, (self.screen, time.monotonic())

        def check() -> None:
            if self._key_hold is not held:  # a key found the screen up and took them along
                timer.stop()
            elif self._hold_over():
                timer.stop()
                self.call_after_refresh(self._release_keys, held)  # once it is drawn, too

        timer = self.set_interval(0.01, check)

    def _hold_over(self) -> bool:
        """The new screen is mounted (its widgets are there: a key given to a screen still
        composing found no '#info'); or no new screen came in HOLD_SECONDS: this one takes them."""
        screen, since = self._hold_from
        new, waited = self.screen, time.monotonic() - since
        return (new is not screen and new.is_mounted) or (new is screen and waited > self.HOLD_SECONDS) \
            or waited > 5 * self.HOLD_SECONDS

    def _release_keys(self, held: list, *then: events.Key) -> None:
        """The keys of the hold ``held`` (if it still holds), then ``then``, each posted again to
        go the whole way a typed key goes: the new screen's bindings, or the input field it
        focuses (a name typed ahead).  One that brings yet another screen ("n" on the start
        screen) holds the ones after it for that screen."""
        if self._key_hold is not held:
            return
        self._key_hold = None
        for event in (*held, *then):
            self.post_message(events.Key(event.key, event.character))

    async def _on_key(self, event: events.Key) -> None:
        """Runs before Textual's own ``App._on_key`` (the bindings); a held key goes no further."""
        held = self._key_hold
        if held is None:
            return
        if not self._hold_over():
            held.append(event)  # for the screen that is coming
            event.prevent_default()
        elif held:  # the screen is up and keys still wait: they go first, in order, then this one
            self._release_keys(held, event)
            event.prevent_default()
        else:
            self._key_hold = None  # the screen is up and nothing waits: this key goes on as it is

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

    def show_round(self, table: Table | None) -> None:
        """Put the session's round ``table`` on screen."""
        if table is None:
            return
        screen = GameScreen(self.session, self.look)
        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @property
    def rules(self) -> str:
        """The rules a new deal is played under: the command line's, else the setting."""
        return playable_rules(self.launch.rules or self.settings.rules)

    def begin_deal(self, number: int | str, suits: int) -> None:  # a number or a deal code
        self.show_round(self.session.deal(number, suits, self.rules))

    @on(messages.NewRound)
    def new_round(self, message: messages.NewRound) -> None:
        if self.lesson_on_table():
            self.open_lesson(messages.OpenLesson())  # New in a lesson: the next lesson
            return
        self.start_new(message.suits)

    @property
    def lessons(self) -> LessonSession:
        """The lessons' session (SPEC §15), made when first needed (not on the way to the first frame)."""
        if self._lessons is None:
            from spider_tui.lessons.session import LessonSession

            self._lessons = LessonSession(lambda: self.book.data, self.book.write)
        return self._lessons

    def lesson_on_table(self) -> bool:
        return self._lessons is not None and isinstance(self.screen, GameScreen) and self.screen.session is self._lessons

    @on(messages.OpenLesson)
    def open_lesson(self, message: messages.OpenLesson) -> None:
        """A lesson on the table (SPEC §15); after the last one, back to the list."""
        from spider_tui.lessons import lesson_by_number

        lesson = self.lessons.next_lesson() if message.number is None else lesson_by_number(message.number)
        if lesson is None:
            if self.lesson_on_table():
                self.leave_round()
            return
        self.lessons.begin(lesson)
        screen = GameScreen(self.lessons, self.look)
        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

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

    @on(messages.RetryRound)
    def retry(self) -> None:
        if self.lesson_on_table():
            self.open_lesson(messages.OpenLesson(self.lessons.lesson.number if self.lessons.lesson else 1))
            return
        self.show_round(self.session.retry(self.rules))
        if getattr(self.session, "last_try", None) is not None and self.session.table is not None:
            self.session.table.say(_("t: race your last try as a ghost."))

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
        self.here.stop(wait=False)  # the embedded Palast stops with the app

