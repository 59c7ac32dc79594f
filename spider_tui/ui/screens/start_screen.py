"""Start screen: Continue, New game, Daily challenge, Suits 1/2/4, Special rules, Winnable deals
only, Four colours, ASCII, Stats, Help, Quit (SPEC §7, §14).  Every line is a chip: a click does what its key does."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.safe_text import safe
from spider_tui.ui.widgets.dialogs import ModalDialog as Dialog
from spider_tui.ui.widgets import Chip

if TYPE_CHECKING:
    from textual import getters

    from spider_tui.ui.app import SpiderApp

TITLE = "S P I D E R"


class StartScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(SpiderApp)

    BINDINGS = [
        Binding("c", "continue_round", "Continue"),
        Binding("n,enter", "new_game", "New game"),
        Binding("d", "daily", "Daily"),
        Binding("1", "suits(1)", "1 suit", show=False),
        Binding("2", "suits(2)", "2 suits", show=False),
        Binding("4", "suits(4)", "4 suits", show=False),
        Binding("o", "rules", "Special rules"),
        Binding("w", "winnable", "Winnable only", show=False),
        Binding("f", "display('four_color')", "Four colours", show=False),
        Binding("a", "display('ascii')", "ASCII", show=False),
        Binding("s", "stats", "Stats"),
        Binding("p", "palast", "Palast"),
        Binding("f1,question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(TITLE, id="title", markup=False)
            with Horizontal(id="suits"):
                yield Static("Suits", markup=False, id="suits-label")
                for k in (1, 2, 4):
                    yield Chip(str(k), f"suits({k})", id=f"suits-{k}", classes="suit")
                yield Static("(keys 1 2 4)", markup=False, id="suits-keys")
            yield Chip("Continue (c)", "continue_round", id="continue")
            yield Chip("New game (n)", "new_game", id="newgame")
            yield Chip("Daily challenge (d)", "daily", id="daily")
            yield Chip("Special rules (o)", "rules", id="rules")
            yield Chip("Winnable deals only (w): off", "winnable", id="winnable")
            yield Chip("Four colours (f)", "display('four_color')", id="fourcolor")
            yield Chip("ASCII (a)", "display('ascii')", id="ascii")
            yield Chip("Stats (s)", "stats", id="stats")
            yield Chip("Palast (p)", "palast", id="palast")
            yield Chip("Help (F1)", "help", id="help")
            yield Chip("Quit (q)", "quit", id="quit")
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
        self.query_one("#fourcolor", Chip).update(f"Four colours (f): {'on' if look.four_color else 'off'}")
        self.query_one("#ascii", Chip).update(f"ASCII (a): {'on' if look.ascii else 'off'}")
        self.query_one("#title", Static).update(look.text(TITLE))
        self.query_one("#rules", Chip).update(safe(f"Special rules (o): {app.settings.rules}"))
        self.query_one("#winnable", Chip).update(f"Winnable deals only (w): {'on' if app.settings.winnable_only else 'off'}")
        has_round = app.saved_round() is not None
        self.query_one("#continue", Chip).display = has_round
        done = app.daily_won(app.today(), suits)
        self.query_one("#daily", Chip).update("Daily challenge (d)" + (f"  {look.marks['check']} Today done" if done else ""))
        notice = app.take_notice()
        if notice:
            self.query_one("#note", Static).update(safe(notice))
        self.refresh_bindings()

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

    BINDINGS = [Binding("escape,q,o", "close", "Done")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 64; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    RulesScreen OptionList { height: auto; max-height: 16; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Special rules for new rounds (Enter toggles, Esc done)", markup=False)
            yield OptionList(*self.options(), id="rules-list")
            yield Static("", id="rules-name", markup=False)

    def options(self) -> list[Option]:
        from spider_tui.rules_menu import lines

        return [Option(label, id=key) for key, label in lines(self.app.settings.rules, ascii=self.app.look.ascii)]

    def on_mount(self) -> None:
        self.query_one("#rules-name", Static).update(safe(f"Rules: {self.app.settings.rules}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from spider_tui.rules_menu import toggle

        new = toggle(self.app.settings.rules, event.option.id or "").name
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

    BINDINGS = [Binding("escape,q", "close", "Back")]
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
    BINDINGS = [Binding("escape,q,s", "close", "Back")]
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
            yield Static("Esc to go back", markup=False)

    def action_close(self) -> None:
        self.answer_once(None)
