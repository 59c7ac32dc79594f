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
import os
import random
import signal
import time
from datetime import date
from typing import Callable

from textual.app import App
from textual.filter import Monochrome, NoColor
from textual.scrollbar import ScrollBar, ScrollBarRender

from spider_tui.safe_text import visible
from spider_tui.engine import MAX_DEAL, MIN_DEAL, Game, rules_named
from spider_tui.store import (
    RoundResult,
    RoundState,
    SaveError,
    SaveFile,
    default_data,
    daily_dates,
    daily_number,
    get_settings,
    is_daily_won,
    record_result,
    set_setting,
)
from spider_tui.store.rounds import RoundMark, drop_round, end_round_once, get_round, keep_round, latest_round
from spider_tui.store.writer import SaveWriter
from spider_tui.store import today as real_today
from spider_tui.table import Table, plural
from spider_tui.ui.game_screen import GameScreen
from spider_tui.ui.no_color import StripColor
from spider_tui.ui.render import Look
from spider_tui.ui_launch import Launch

class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars of whole cells only: no ▁▂▃ block glyphs in ASCII mode."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


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
        if self.no_color:  # NO_COLOR: no colour codes at all (Textual's own filter leaves greys)
            self._filters = [f for f in self._filters if not isinstance(f, (Monochrome, NoColor))]
            self._filters.append(StripColor())
        self._ascii_forced = self.launch.ascii  # --ascii, or a terminal that needs it
        self.look = self.make_look()
        self.table: Table | None = None
        self._mark: RoundMark | None = None  # the round's identity in the save file
        self.writer = SaveWriter(save, on_written=self._written_elsewhere)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._write_failing = False
        self._recorded = False
        self._save_timer = None
        self._error_told = False
        self._winnable = None

    # ------------------------------------------------------------------ data
    @property
    def settings(self):
        """The saved settings; a rules name this version doesn't know (a newer spider wrote it)
        reads as classic here and stays in the file."""
        settings = get_settings(self.data)
        try:
            rules_named(settings.rules)
        except (KeyError, ValueError):
            settings = dataclasses.replace(settings, rules="classic")
        return settings

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
        found = latest_round(self.data)
        return None if found is None else found[1]

    def daily_won(self, d: date, suits: int) -> bool:
        return is_daily_won(self.data, d, suits)

    def daily_dates(self) -> list[date]:
        return daily_dates(self.today())

    def set_suits(self, k: int) -> None:
        self.write(lambda d: set_setting(d, "suits", k))

    def set_rules(self, name: str) -> None:
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
            self.begin(Table(Game.from_text(la.position), practice=True, start=la.position), "Practice")
        elif la.daily is not None:
            self.start_daily(la.daily, suits=la.suits)
        elif la.deal is not None:
            self.begin_deal(la.deal, la.suits or self.settings.suits)
        elif la.suits is not None:
            self.start_new(suits=la.suits)
        else:
            from spider_tui.ui.start_screen import StartScreen

            self.push_screen(StartScreen())

    def title_for(self, table: Table) -> str:
        if table.practice:
            return "Practice"
        if table.daily is not None:
            return f"Daily {table.daily.isoformat()}"
        return f"Deal {table.deal_number}"

    def begin(self, table: Table, title: str | None = None, *, token: str | None = None) -> None:
        """Put ``table`` on screen as the current round."""
        self.table = table
        # A continued round was read from the file: it is on disk under its token.
        self._mark = RoundMark(token or os.urandom(6).hex(), on_disk=token is not None)
        self._recorded = False
        screen = GameScreen(table, self.look, title or self.title_for(table))
        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def begin_deal(self, number: int, suits: int, daily: date | None = None) -> None:
        # The daily deal is the same challenge for everyone: classic rules.
        rules = "classic" if daily is not None else (self.launch.rules or self.settings.rules)
        try:
            rules_named(rules)
        except KeyError:
            rules = "classic"  # a rules name from a newer version: play classic
        self.begin(Table.new(number, suits=suits, rules=rules, daily=daily))

    def start_new(self, suits: int | None = None) -> None:
        """A new random deal: at ``suits``, else the command line's --suits, else the setting.
        With "Winnable deals only" a number the solver proved winnable (ui/winnable_deals.py)."""
        suits = suits or self.launch.suits or self.settings.suits
        if self.settings.winnable_only:
            if self.winnable.new_deal(suits, self.launch.rules or self.settings.rules, self.begin_deal):
                return
        self.begin_deal(self.rng.randint(MIN_DEAL, MAX_DEAL), suits)

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
        self.begin_deal(daily_number(d), suits or self.settings.suits, daily=d)

    def continue_round(self) -> None:
        found = latest_round(self.data)
        if found is None:
            return
        token, state = found
        t = self.table
        if t is not None and self._mark is not None and token == self._mark.token and not self._recorded and not t.over:
            self.begin(t, token=token)  # the round left for the start screen: undo history and all
            return
        try:
            game = Game.from_text(state.position)
        except ValueError as e:
            self.notify(visible(f"The saved round could not be read ({e}); it was dropped."), severity="error", markup=False)
            self.write(lambda d: drop_round(d, token))
            return
        table = Table(game, deal_number=state.deal, daily=state.daily, practice=state.practice,
                      hints_used=state.hints, seconds=state.seconds, start=state.start)
        self.begin(table, token=token)

    def start_over(self, go: Callable[[], None]) -> None:
        """Start screen New/Daily: with an unfinished round saved, ask first; it then ends and counts."""
        found = latest_round(self.data)
        if found is None:
            go()
            return
        token, old = found
        from spider_tui.ui.dialogs import Confirm

        what = f"Deal {old.deal}" if old.deal is not None else "a practice round"
        counts = "" if old.practice or "practice" in old.rules else " It ends and counts as played."
        question = f"You have an unfinished round ({what}, {plural(old.moves, 'move')}). Start a new one?{counts}"

        def answered(yes: bool | None) -> None:
            if not yes:
                return

            def change(d: dict) -> None:
                if get_round(d, token) is not None:  # not ended meanwhile by another instance
                    record_result(d, RoundResult(suits=old.suits, won=False, moves=old.moves, seconds=old.seconds,
                                                 rules=old.rules, daily=old.daily,
                                                 practice=old.practice or "practice" in old.rules))
                    drop_round(d, token)

            self.write(change)
            go()

        self.open_dialog(Confirm(question, answered))

    def open_dialog(self, dialog) -> None:
        """Show a dialog: over the table when a round is on screen, else on a screen of its own."""
        from spider_tui.ui.overlay import DialogScreen

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
    def round_changed(self, screen: GameScreen) -> None:
        t = self.table
        if t is None:
            return
        if t.lost and not self._recorded:
            self.end_round(won=False)
            return
        if t.won and not self._recorded:
            self.end_round(won=True)
            from spider_tui.ui.dialogs import Won

            self.show_won()
            return
        if t.moves > 0 and not t.over:
            if self._save_timer is not None:
                self._save_timer.stop()
            self._save_timer = self.set_timer(SAVE_DELAY, self.store_round)

    def show_won(self) -> None:
        """The Won panel (again: Enter on a won table brings it back)."""
        from spider_tui.ui.dialogs import Won

        t = self.table
        if t is not None and t.won and not isinstance(self.dialog, Won):
            self.open_dialog(Won(t.moves, t.seconds, t.hints_used, self.title_for(t), t.game.score, done=self._after_won))

    def _after_won(self, choice: str | None) -> None:
        if choice == "new":
            self.start_new()
        elif choice == "retry":
            self.retry()

    def _result(self, won: bool) -> RoundResult:
        t = self.table
        return RoundResult(suits=t.suits, won=won, moves=t.moves, seconds=t.seconds,
                           rules=t.game.rules.name, daily=t.daily, practice=t.practice or t.game.rules.practice)

    def end_round(self, won: bool) -> None:
        """The round ends (won, or left by New/Retry): record it once and forget the saved copy."""
        t = self.table
        if t is None or self._recorded:
            return
        self._recorded = True
        if self._save_timer is not None:
            self._save_timer.stop()
        t.pause()
        counts = t.moves > 0
        result = self._result(won)
        mark = self._mark

        def record(d: dict) -> None:
            if counts:
                record_result(d, result)

        self.write(lambda d: end_round_once(d, mark, record))

    def store_round(self) -> None:
        """Write the unfinished round for Continue (without undo history)."""
        t = self.table
        if t is None or self._recorded or t.moves == 0 or t.over:
            return
        state = RoundState(position=t.game.to_text(), suits=t.suits, rules=t.game.rules.name,
                           moves=t.moves, seconds=round(t.seconds, 3), hints=t.hints_used,
                           deal=t.deal_number, daily=t.daily, practice=t.practice, start=t.start)
        mark, now = self._mark, time.time()
        self.write(lambda d: keep_round(d, mark, state, now), after=lambda: setattr(mark, "on_disk", True))

    def ask_end_round(self, kind: str) -> None:
        """Retry or New; asks first when a round is in progress (SPEC §6)."""
        t = self.table
        go = self.retry if kind == "retry" else self.start_new
        if t is None or not t.in_progress:
            if t is not None and t.moves > 0 and not self._recorded:
                self.end_round(won=t.won)
            go()
            return
        from spider_tui.ui.dialogs import Confirm

        recorded = not (t.practice or t.game.rules.practice)
        question = ("Retry this deal from the start?" if kind == "retry" else "Start a new deal?") + \
            (" The round in progress ends and counts as played." if recorded else " This practice round ends.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.end_round(won=False)
                go()

        self.open_dialog(Confirm(question, answered))

    def ask_give_up(self) -> None:
        """Give up (SPEC §10): ends the round as lost, after a confirm."""
        t = self.table
        if t is None or t.over:
            return
        from spider_tui.ui.dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes and t.give_up():
                self.end_round(won=False)
                if isinstance(self.screen, GameScreen):
                    self.screen.sync()

        recorded = t.moves > 0 and not (t.practice or t.game.rules.practice)
        self.open_dialog(Confirm("Give up this round? It ends" + (" and counts as lost." if recorded else "."), answered))

    def retry(self) -> None:
        t = self.table
        if t is None:
            return
        if t.start is not None:
            self.begin(Table(Game.from_text(t.start), practice=t.practice, start=t.start), self.title_for(t))
        elif t.deal_number is not None:
            self.begin_deal(t.deal_number, t.suits, daily=t.daily)
        else:
            self.start_new(t.suits)

    def show_stats(self) -> None:
        from spider_tui.ui.start_screen import StatsScreen

        self.load_data()
        self.push_screen(StatsScreen())

    def show_help(self) -> None:
        from spider_tui.ui.dialogs import Help

        self.open_dialog(Help())

    def quit_app(self) -> None:
        self.store_round()
        self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q, from anywhere: keep the round for Continue, then leave."""
        self.quit_app()

    def leave_round(self) -> None:
        """``q`` (or Esc with nothing held) in a round: back to the start screen; the round is kept
        for Continue (SPEC §7) and its time stops."""
        from spider_tui.ui.start_screen import StartScreen

        if self._save_timer is not None:
            self._save_timer.stop()
        self.store_round()
        self.load_data()
        starts = [s for s in self.screen_stack if isinstance(s, StartScreen)]
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
