"""Start screen: Continue, New game, Daily challenge, Suits 1/2/4, Special rules, Winnable deals
only, Four colours, ASCII, Stats, Help, Quit (SPEC §7, §14).  Every line is a chip: a click does what its key does."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.commands import (DAILY_CLOSE, RULES_MENU_CLOSE, START_COMMANDS, STATS_CLOSE, chip_text, command,
                                 keys_text)
from spider_tui.safe_text import safe
from spider_tui.ui.widgets.dialogs import ModalDialog as Dialog
from spider_tui.ui.keys import bindings
from spider_tui.ui.widgets import Chip

if TYPE_CHECKING:
    from textual import getters

    from spider_tui.ui.app import SpiderApp

TITLE = "S P I D E R"


class StartScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(SpiderApp)

    BINDINGS = bindings(START_COMMANDS)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(TITLE, id="title", markup=False)
            with Horizontal(id="suits"):
                yield Static("Suits", markup=False, id="suits-label")
                for k in (1, 2, 4):
                    yield Chip(str(k), f"suits({k})", id=f"suits-{k}", classes="suit")
                yield Static(f"(keys {keys_text('suits(1)', START_COMMANDS)})", markup=False, id="suits-keys")
            for c in START_COMMANDS:
                if c.chip:
                    yield Chip(chip_text(c), c.action, id=c.chip_id)
            yield Static("", id="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sync()

    def on_screen_resume(self) -> None:
        self.sync()

    def sync(self) -> None:
        app = self.app
        suits = app.settings.suits
        for k in (1, 2, 4):
            self.query_one(f"#suits-{k}", Chip).set_class(k == suits, "-on")
        look = app.look
        self.label("display('four_color')", look.four_color)
        self.label("display('ascii')", look.ascii)
        self.query_one("#title", Static).update(look.text(TITLE))
        # The rules New plays: the command line's (--rules), else the saved setting; never markup.
        self.label("rules", tail=f": {app.rules}")
        self.label("winnable", app.settings.winnable_only)
        self.chip("continue_round").display = app.saved_round() is not None
        done = app.daily_won(app.today(), suits)
        self.label("daily", tail=f"  {look.marks['check']} Today done" if done else "")
        notice = app.take_notice()
        if notice:
            self.query_one("#note", Static).update(safe(notice))
        self.refresh_bindings()

    def chip(self, action: str) -> Chip:
        """The chip of the start command ``action``."""
        return self.query_one(f"#{command(action, START_COMMANDS).chip_id}", Chip)

    def label(self, action: str, state: bool | None = None, tail: str = "") -> None:
        """Write the chip of ``action``: its words and key, on/off for a toggle, then ``tail``."""
        self.chip(action).update(safe(chip_text(command(action, START_COMMANDS), state) + tail))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue_round":
            return self.app.saved_round() is not None  # hidden, not just dimmed, without a round
        return True

    def action_suits(self, k: int) -> None:
        self.app.set_suits(k)
        if self.app.settings.winnable_only:
            self.app.winnable.prove_ahead(k)
        self.sync()

    def action_winnable(self) -> None:
        """Toggle "Winnable deals only" (remembered): New deals proved-winnable numbers."""
        on = not self.app.settings.winnable_only
        self.app.set_winnable_only(on)
        if on:
            note = "New deals only numbers the solver proved winnable (it looks at every card to prove it)."
            self.notify(note, markup=False, timeout=6)
        self.sync()

    def action_display(self, name: str) -> None:
        """Four colours / ASCII: toggled, remembered, used from the next table drawn."""
        look = self.app.look
        self.app.set_display(name, not (look.four_color if name == "four_color" else look.ascii))
        self.sync()

    def action_continue_round(self) -> None:
        self.app.continue_round()

    def action_new_game(self) -> None:
        self.app.start_over(self.app.start_new)

    def action_daily(self) -> None:
        def chosen(d: date | None) -> None:
            if d is not None:
                self.app.start_over(lambda: self.app.start_daily(d))

        self.app.push_screen(DailyScreen(), chosen)

    def action_stats(self) -> None:
        self.app.show_stats()

    def action_palast(self) -> None:
        self.app.open_palast()

    def action_help(self) -> None:
        self.app.show_help()

    def action_quit(self) -> None:
        self.app.quit_app()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(), lambda _: self.sync())


class RulesScreen(Dialog[None]):
    """Special rules (SPEC §10): toggle options for the next new round.  Saved at once."""

    BINDINGS = bindings([RULES_MENU_CLOSE])
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 64; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    RulesScreen OptionList { height: auto; max-height: 16; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(f"Special rules for new rounds (Enter toggles, {RULES_MENU_CLOSE.keys_text} done)", markup=False)
            yield OptionList(*self.options(), id="rules-list")
            yield Static("", id="rules-name", markup=False)

    def options(self) -> list[Option]:
        from spider_tui.rules_menu import lines

        return [Option(label, id=key) for key, label in lines(self.app.rules, ascii=self.app.look.ascii)]

    def on_mount(self) -> None:
        self.query_one("#rules-name", Static).update(safe(f"Rules: {self.app.rules}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from spider_tui.rules_menu import toggle

        new = toggle(self.app.rules, event.option.id or "").name
        self.app.set_rules(new)
        ol = self.query_one("#rules-list", OptionList)
        index = ol.highlighted
        ol.clear_options()
        ol.add_options(self.options())
        ol.highlighted = index
        self.query_one("#rules-name", Static).update(f"Rules: {new}")

    def action_close(self) -> None:
        self.answer_once(None)


class DailyScreen(Dialog["date | None"]):
    """Today and the 29 days before, each marked when won at the current suit count."""

    BINDINGS = bindings([DAILY_CLOSE])
    DEFAULT_CSS = """
    DailyScreen { align: center middle; }
    DailyScreen > Vertical { width: 48; height: 80%; border: round $accent; background: $surface; padding: 0 1; }
    DailyScreen OptionList { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        app = self.app
        suits = app.settings.suits
        options = []
        for d in app.daily_dates():
            won = app.daily_won(d, suits)
            check = app.look.marks["check"]
            label = d.strftime("%a %Y-%m-%d") + ("  (today)" if d == app.today() else "") + (f"  {check} won" if won else "")
            options.append(Option(label, id=d.isoformat()))
        with Vertical(classes="box"):
            yield Static(f"Daily challenge {app.look.marks['sep']} {suits} suit{'s' if suits != 1 else ''}", markup=False)
            yield OptionList(*options, id="dates")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # The start screen starts it once this screen is gone (a dialog pushed from here would be
        # popped by this dismiss instead of this screen).
        self.answer_once(date.fromisoformat(event.option.id or ""))

    def action_close(self) -> None:
        self.answer_once(None)


class StatsScreen(Dialog[None]):
    BINDINGS = bindings([STATS_CLOSE])
    DEFAULT_CSS = """
    StatsScreen { align: center middle; }
    StatsScreen > VerticalScroll { width: 84; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    StatsScreen Static { width: 100%; }
    """

    def compose(self) -> ComposeResult:
        from spider_tui.store import stats_rules
        from spider_tui.store.report import stats_table

        data = self.app.load_data()
        with VerticalScroll(classes="box"):
            yield Static(stats_table(data, ascii=self.app.look.ascii), id="stats-table")
            for rules in stats_rules(data):
                if rules != "classic":  # other rules keep their own stats (SPEC §10)
                    yield Static(safe(f"Rules: {rules}"), classes="rules-title")
                    yield Static(stats_table(data, rules=rules, ascii=self.app.look.ascii))
            yield Static(f"{STATS_CLOSE.keys_text} to go back", markup=False)

    def action_close(self) -> None:
        self.answer_once(None)
