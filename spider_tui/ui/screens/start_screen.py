"""Start screen: Continue, New game, Daily challenge, Suits 1/2/4, Special rules, Winnable deals
only, Four colours, ASCII, Stats, Help, Quit (SPEC §7, §14).  Every line is a chip: a click does what its key does."""

from __future__ import annotations

from datetime import date
from typing import Callable

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.commands import (DAILY_CLOSE, RULES_MENU_CLOSE, START_COMMANDS, chip_text, command,
                                 keys_text)
from spider_tui.i18n import N_, _, language, ngettext
from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.store.path import LEVELS, ROUND_TIME, head_line, level_line, mark_suggested, suggestion
from spider_tui.safe_text import safe
from spider_tui.session import SoloSession
from spider_tui.store.book import SaveBook, playable_rules
from spider_tui.ui import messages
from spider_tui.ui.keys import KeysFollow, bindings
from spider_tui.ui.render import Look
from spider_tui.ui.widgets import Chip
from spider_tui.ui.widgets.dialogs import Confirm
from spider_tui.ui.widgets.dialogs import ModalDialog as Dialog
from spider_tui.ui.widgets.footer import Footer
from spider_tui.ui.widgets.overlay import DialogScreen

TITLE = "S P I D E R"
WEEKDAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))  # not the C locale's %a
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}  # each in its own language, as a menu of languages says it


class StartScreen(KeysFollow, Screen):
    """Shows the save book's settings and the session's saved round; changes settings in the book;
    posts what it starts (``ui/messages.py``)."""

    BINDINGS = bindings(START_COMMANDS)

    def __init__(self, book: SaveBook, session: SoloSession, look: Look, today: Callable[[], date],
                 rules: str | None = None) -> None:
        super().__init__()
        self.book = book
        self.session = session
        self.look = look
        self.today = today
        self._suggestion: str | None = None  # the next level, suggested on this visit
        self.launch_rules = rules  # spider --rules NAME: New plays these until the rules menu changes them

    @property
    def rules(self) -> str:
        """The rules New plays: the command line's, else the saved setting."""
        return playable_rules(self.launch_rules or self.book.settings.rules)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(TITLE, id="title", markup=False)
            # The path (SPEC §15): the suit counts as levels, each with what good play wins and
            # the player's record; a click on a level's key (or the key) picks it.
            with Vertical(id="suits"):
                yield Static(self.look.text(f"    {head_line()}"), markup=False, id="suits-label")
                for level in LEVELS:
                    with Horizontal(classes="level"):
                        yield Chip(str(level.suits), f"suits({level.suits})", id=f"suits-{level.suits}", classes="suit")
                        yield LevelText(level.suits)
                yield Static(self.look.text(" " + _(ROUND_TIME)), markup=False, id="suits-keys")
            for c in START_COMMANDS:
                if c.chip:
                    yield Chip(chip_text(c), c.action, id=c.chip_id)
            yield Static("", id="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sync()

    def on_screen_resume(self) -> None:
        self.sync()

    def on_screen_suspend(self) -> None:
        self._suggestion = None  # said once: gone when the player comes back

    def show_look(self, look: Look) -> None:
        """The display options changed (the app made the look from them)."""
        self.look = look
        self.sync()

    def saved_round(self) -> bool:
        """Is there an unfinished round for Continue?"""
        return self.session.saved() is not None

    def sync(self) -> None:
        settings = self.book.settings
        suits = settings.suits
        for k in SUIT_COUNTS:
            self.query_one(f"#suits-{k}", Chip).set_class(k == suits, "-on")
        look = self.look
        self.label("display('four_color')", look.four_color)
        self.label("display('ascii')", look.ascii)
        self.query_one("#title", Static).update(look.text(TITLE))
        self.label("rules", tail=f": {self.rules}")  # the rules New plays; never markup
        self.label("winnable", settings.winnable_only)
        self.label("language", tail=": " + LANGUAGE_NAMES[language()])
        self.chip("continue_round").display = self.saved_round()
        done = self.book.daily_won(self.today(), suits)
        self.label("daily", tail=f"  {look.marks['check']} " + _("Today done") if done else "")
        for level in LEVELS:
            self.query_one(f"#level-{level.suits}", Static).update(look.text(level_line(level, self.book.data)))
        notice = self.book.take_notice()
        note = self.query_one("#note", Static)
        if notice:
            note.update(safe(notice))
        note.display = bool(notice) or bool(str(note.content))  # no empty line under the menu
        if self._suggestion is None:
            # Once, quietly, in place of the round-time line: after 3 wins at the level played,
            # the next level (SPEC §15).  It stays for this visit of the start screen.
            said = suggestion(self.book.data, suits)
            if said is not None:
                self._suggestion = said
                self.book.write(lambda d: mark_suggested(d, suits))
        self.query_one("#suits-keys", Static).update(look.text(" " + (self._suggestion or _(ROUND_TIME))))
        self.refresh_bindings()

    def chip(self, action: str) -> Chip:
        """The chip of the start command ``action``."""
        return self.query_one(f"#{command(action, START_COMMANDS).chip_id}", Chip)

    def label(self, action: str, state: bool | None = None, tail: str = "") -> None:
        """Write the chip of ``action``: its words and key, on/off for a toggle, then ``tail``."""
        self.chip(action).update(safe(chip_text(command(action, START_COMMANDS), state) + tail))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue_round":
            return self.saved_round()  # hidden, not just dimmed, without a round
        return True

    def set_setting(self, name: str, value: object) -> None:
        """Remember a setting, tell the app (it may act on it), show it."""
        self.book.set_setting(name, value)
        self.post_message(messages.SettingsChanged(name))
        self.sync()

    def action_suits(self, k: int) -> None:
        self.set_setting("suits", k)

    def action_winnable(self) -> None:
        """Toggle "Winnable deals only" (remembered): New deals proved-winnable numbers."""
        on = not self.book.settings.winnable_only
        self.set_setting("winnable_only", on)
        if on:
            note = _("New deals only numbers the solver proved winnable (it looks at every card to prove it).")
            self.notify(note, markup=False, timeout=6)

    def action_language(self) -> None:
        """English <-> Deutsch (remembered over the locale): the app speaks it from this screen on."""
        self.set_setting("language", "en" if language() == "de" else "de")

    def action_display(self, name: str) -> None:
        """Four colours / ASCII: toggled, remembered, used from the next table drawn (the app
        makes the new look and shows it here)."""
        look = self.look
        self.set_setting(name, not (look.four_color if name == "four_color" else look.ascii))

    def action_continue_round(self) -> None:
        self.leave_for(messages.ContinueRound())

    def start_over(self, start: messages.NewRound | messages.DailyRound) -> None:
        """New/Daily: with an unfinished round saved, ask first; it then ends and counts."""
        question = self.session.start_over_question()
        if question is None:
            self.leave_for(start)
            return

        def answered(yes: object) -> None:
            if yes:
                self.session.abandon_saved()
                self.leave_for(start)

        dialog = Confirm(question, answered)
        self.app.push_screen(DialogScreen(dialog), dialog.done)

    def action_new_game(self) -> None:
        self.start_over(messages.NewRound())

    def action_daily(self) -> None:
        def chosen(d: date | None) -> None:
            if d is not None:
                self.start_over(messages.DailyRound(d))

        self.app.push_screen(DailyScreen(self.book, self.look, self.today), chosen)

    def action_stats(self) -> None:
        self.leave_for(messages.ShowStats())

    def action_lessons(self) -> None:
        from spider_tui.ui.screens.lessons_screen import LessonsScreen

        self.app.push_screen(LessonsScreen(self.book, self.look))

    def action_palast(self) -> None:
        self.leave_for(messages.OpenPalast())

    def action_help(self) -> None:
        self.leave_for(messages.ShowHelp())

    def action_records(self) -> None:
        self.post_message(messages.OpenRecords())

    def action_quit(self) -> None:
        self.post_message(messages.QuitApp())

    def action_rules(self) -> None:
        def closed(changed: object) -> None:
            if changed:  # the player's choice now stands over --rules
                self.launch_rules = None
                self.post_message(messages.SettingsChanged("rules"))
            self.sync()

        self.app.push_screen(RulesScreen(self.book, ascii=self.look.ascii, rules=self.rules), closed)


class RulesScreen(Dialog[bool]):
    """Special rules (SPEC §10): toggle options for the next new round.  Saved at once."""

    BINDINGS = bindings([RULES_MENU_CLOSE])
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 72; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    RulesScreen OptionList { height: auto; max-height: 16; }
    """

    def __init__(self, book: SaveBook, ascii: bool = False, rules: str | None = None) -> None:
        super().__init__()
        self.book = book
        self.ascii = ascii
        self.rules = rules or book.settings.rules  # what the menu starts from (--rules, else the setting)
        self.changed = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(_('Special rules for new rounds (Enter toggles, {keys} done)').format(keys=_(RULES_MENU_CLOSE.keys_text)), markup=False)
            yield OptionList(*self.options(), id="rules-list")
            yield Static("", id="rules-name", markup=False)

    def options(self) -> list[Option]:
        from spider_tui.rules_menu import lines

        return [Option(label, id=key) for key, label in lines(self.rules, ascii=self.ascii)]

    def on_mount(self) -> None:
        self.query_one("#rules-name", Static).update(safe(_("Rules: {rules}").format(rules=self.rules)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from spider_tui.rules_menu import toggle

        new = self.rules = toggle(self.rules, event.option.id or "").name
        self.book.set_setting("rules", new)
        self.changed = True
        ol = self.query_one("#rules-list", OptionList)
        index = ol.highlighted
        ol.clear_options()
        ol.add_options(self.options())
        ol.highlighted = index
        self.query_one("#rules-name", Static).update(safe(_('Rules: {rules}').format(rules=new)))

    def action_close(self) -> None:
        self.answer_once(self.changed)


class DailyScreen(Dialog["date | None"]):
    """Today and the 29 days before, each marked when won at the current suit count."""

    BINDINGS = bindings([DAILY_CLOSE])
    DEFAULT_CSS = """
    DailyScreen { align: center middle; }
    DailyScreen > Vertical { width: 48; height: 80%; border: round $accent; background: $surface; padding: 0 1; }
    DailyScreen OptionList { height: 1fr; }
    """

    def __init__(self, book: SaveBook, look: Look, today: Callable[[], date]) -> None:
        super().__init__()
        self.book = book
        self.look = look
        self.today = today
        self._suggestion: str | None = None  # the next level, suggested on this visit

    def compose(self) -> ComposeResult:
        book, look, today = self.book, self.look, self.today()
        suits = book.settings.suits
        options = []
        for d in book.daily_dates(today):
            won = book.daily_won(d, suits)
            check = look.marks["check"]
            label = (f"{_(WEEKDAYS[d.weekday()])} {d.isoformat()}" + ("  " + _("(today)") if d == today else "")
                     + (f"  {check} " + _("won") if won else ""))
            options.append(Option(label, id=d.isoformat()))
        with Vertical(classes="box"):
            yield Static(ngettext('Daily challenge {sep} {suits} suit', 'Daily challenge {sep} {suits} suits', suits).format(
                sep=look.marks['sep'], suits=suits), markup=False)
            yield OptionList(*options, id="dates")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # The start screen starts it once this screen is gone (a dialog pushed from here would be
        # popped by this dismiss instead of this screen).
        self.answer_once(date.fromisoformat(event.option.id or ""))

    def action_close(self) -> None:
        self.answer_once(None)


class StatsScreen(DialogScreen):
    """The stats from the start screen: the same box as over a round (``widgets.dialogs.Stats``)."""

    def __init__(self, data: dict, ascii: bool = False) -> None:
        from spider_tui.ui.widgets.dialogs import Stats

        super().__init__(Stats(data, ascii=ascii))


class LevelText(Static):
    """A level's words ("2 suits  about 4 in 5 …"): a click on them picks the level, as its key does."""

    ALLOW_SELECT = False

    def __init__(self, suits: int) -> None:
        super().__init__("", markup=False, id=f"level-{suits}", classes="level-text")
        self.suits = suits

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        await self.app.run_action(f"suits({self.suits})", default_namespace=self.screen)
