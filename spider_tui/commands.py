"""Every key of the app, in one place: key, action, footer label, chip label, help text (SPEC §6, §7).

- :data:`ROUND_COMMANDS`: a round's keys.  The game screen's bindings and footer, the help
  screen's KEYS section and the README's key table are made from it.
- :data:`START_COMMANDS`: the start screen's keys and chips (each chip says its key), and the
  README's start-screen table.
- :data:`PALAST_COMMANDS`: the Palast screen's keys and the lines there that name them;
  ``PALAST_CONNECT_COMMANDS``, ``PALAST_PLAY_HERE_COMMANDS``, ``PALAST_ASK_COMMANDS``,
  ``PALAST_OPEN_COMMANDS`` and ``PALAST_RACE_COMMANDS``: the other Palast screens' keys.
- :data:`CONFIRM_ANSWERS`, :data:`WON_ANSWERS`, :data:`HELP_CLOSE`: what a dialog's keys and chips
  answer.  :data:`RULES_MENU_CLOSE`, :data:`DAILY_CLOSE`, :data:`STATS_CLOSE`: the keys that
  close the start screen's lists.
- :func:`keys_text`: a command's keys as a player reads them, for any label or status line
  that names a key (the Jokers counter, the rules menu, the help).

Tests check the README's tables and the screens' bindings against these.  Plain Python (no
Textual): ``ui/`` turns a :class:`Command` into a binding and an :class:`Answer` into a chip.

>>> [c.label for c in ROUND_COMMANDS if c.footer]
['Deal', 'Undo', 'Hint', 'Joker', 'Retry', 'New', 'Stats', 'Help', 'Menu']
>>> [chip_text(c) for c in START_COMMANDS[:2]]
['Continue (c)', 'New game (n)']
"""

from __future__ import annotations

from typing import NamedTuple

from spider_tui.i18n import NP_, N_, _

COLUMN_KEYS = "1234567890"  # column 1-10
COLUMN_KEYS_TEXT = "1-9, 0"  # the same, as a player reads them


class Command(NamedTuple):
    """One command: Textual key names (comma-separated), the screen's action, the footer label
    (shown when ``footer``), and how the help and the README name the keys and the command.
    (A named tuple: a frozen dataclass of ten fields took ~6 ms to make at every start, SPEC §11.)"""

    keys: str
    action: str
    label: str
    help: str = ""  # what it does, for the help screen and the README ("" for none)
    keys_text: str = ""  # the keys as a player reads them (help and README)
    mouse: str = ""  # the same with the mouse (README)
    footer: bool = False
    key_display: str | None = None
    chip: str = ""  # the start screen: the words of its chip ("" for none); its keys follow
    chip_id: str = ""  # the start screen: the chip's widget id


def chip_text(c: Command, state: bool | None = None) -> str:
    """A chip's label: its words and its keys, and ``on``/``off`` for a toggle.

    >>> chip_text(START_COMMANDS[-1]), chip_text(command("display('ascii')", START_COMMANDS), True)
    ('Quit (q)', 'ASCII (a): on')
    """
    text = f"{_(c.chip)} ({_(c.keys_text)})"
    return text if state is None else f"{text}: {_('on') if state else _('off')}"


def command(action: str, table: list[Command] | None = None) -> Command:
    """The command of ``action`` in ``table`` (the round's by default)."""
    for c in ROUND_COMMANDS if table is None else table:
        if c.action == action:
            return c
    raise KeyError(action)


def keys_text(action: str, table: list[Command] | None = None) -> str:
    """How a player reads the keys of ``action``.

    >>> keys_text("table('joker')"), keys_text("rules", START_COMMANDS)
    ('J', 'o')
    """
    keys = command(action, table).keys_text
    return _(keys) if keys else keys  # a key's name in the language spoken ("Home": "Pos1")


def column_commands() -> list[Command]:
    """The ten column keys: ``column(0)`` … ``column(9)``."""
    return [Command(k, f"column({i})", f"Col {i + 1}") for i, k in enumerate(COLUMN_KEYS)]


ROUND_COMMANDS: list[Command] = [
    Command("", "", "", N_("pick up a column's longest movable group; the same key again: one card fewer"),
            COLUMN_KEYS_TEXT, "click a face-up card (the group it leads)"),
    Command("", "", "", N_("with a group held: put it on that column"), COLUMN_KEYS_TEXT,
            "click a marked column, or drag the card there"),
    Command("left,h", "cursor(-1, 0)", N_("Left"), N_("move the cursor (or h j k l)"), N_("arrows")),
    Command("right,l", "cursor(1, 0)", N_("Right")),
    Command("up,k", "cursor(0, -1)", N_("Up")),
    Command("down,j", "cursor(0, 1)", N_("Down")),
    Command("space", "table('pick_or_put')", N_("Pick/put"), N_("pick up / put down at the cursor"), N_("Space")),
    Command("enter", "table('best_move')", N_("Best move"), N_("best move, or play the hint on show"), "Enter",
            "double-click a card"),
    Command("d", "table('deal')", N_("Deal"), N_("deal"), "d", "click Deals", footer=True),
    Command("u", "table('undo')", N_("Undo"), N_("undo"), "u", "click Undo", footer=True),
    Command("question_mark", "table('hint')", N_("Hint"), N_("hint"), "?", "click Hint", footer=True, key_display="?"),
    Command("escape", "escape", N_("Drop"), N_("drop what you hold; with nothing held: menu"), N_("Esc")),
    Command("J", "table('joker')", N_("Joker"), N_("joker (Joker rule)"), "J", "click Jokers", footer=True, key_display="J"),
    Command("g", "give_up", N_("Give up"), N_("give up"), "g", "click Give up"),
    Command("v", "peek", N_("View column"), N_("see a whole column; after a round not won: where did I lose it?"),
            N_("v + 1-0"), "click its \"more\" line"),
    Command("x", "share", N_("Share"), N_("after a round: copy a spoiler-free line to share (the clipboard)"), "x"),
    Command("t", "ghost_last", N_("Race last try"), N_("after a Retry: race your last try as a ghost"), "t"),
    Command("w", "still_winnable", N_("Winnable?"), N_("could this still be won? (the solver peeks at hidden cards: "
            "the round becomes practice; w again stops it)"), "w"),
    Command("r", "retry", N_("Retry"), N_("retry the deal"), "r", footer=True),
    Command("n", "new", N_("New"), N_("new deal"), "n", footer=True),
    Command("s", "stats", N_("Stats"), N_("stats"), "s", footer=True),
    Command("f1", "help", N_("Help"), N_("help"), "F1", footer=True),
    Command("q", "leave", N_("Menu"), N_("start screen; the round is kept for Continue"), "q", footer=True),
    Command("", "", "", N_("quit from anywhere"), N_("Ctrl+Q")),
]


#: The start screen: every line is a chip that does what its key does (the suit chips are
#: labelled by the suit count; their keys are the three commands without chip words).
START_COMMANDS: list[Command] = [
    Command("c", "continue_round", N_("Continue"), N_("continue the round you left"), "c", footer=True,
            chip=N_("Continue"), chip_id="continue"),
    Command("n,enter", "new_game", N_("New game"), N_("a new deal at the suit count chosen"), "n", footer=True,
            chip=N_("New game"), chip_id="newgame"),
    Command("d", "daily", N_("Daily"), N_("the daily challenge: today or one of the 29 days before"), "d", footer=True,
            chip=N_("Daily challenge"), chip_id="daily"),
    Command("l", "lessons", N_("Lessons"), N_("seven short lessons, each a position to play with one goal"), "l",
            chip=N_("Lessons"), chip_id="lessons"),
    Command("1", "suits(1)", N_("1 suit"), N_("suits for the next round: 1, 2 or 4"), "1 2 4"),
    Command("2", "suits(2)", N_("2 suits")),
    Command("4", "suits(4)", N_("4 suits")),
    Command("o", "rules", N_("Special rules"), N_("special rules and the one-deck games for new rounds"), "o", footer=True,
            chip=N_("Special rules"), chip_id="rules"),
    Command("w", "winnable", N_("Winnable only"), N_("Winnable deals only: New picks only numbers the solver proved winnable"),
            "w", chip=N_("Winnable deals only"), chip_id="winnable"),
    Command("f", "display('four_color')", N_("Four colours"), N_("four colours (remembered)"), "f",
            chip=N_("Four colours"), chip_id="fourcolor"),
    Command("a", "display('ascii')", N_("ASCII"), N_("ASCII suits and marks (remembered)"), "a", chip=N_("ASCII"), chip_id="ascii"),
    Command("s", "stats", N_("Stats"), N_("stats"), "s", footer=True, chip=N_("Stats"), chip_id="stats"),
    Command("p", "palast", N_("Palast"), N_("the Palast: live tables over a network"), "p", footer=True,
            chip=N_("Palast"), chip_id="palast"),
    Command("r", "records", N_("Records"), N_("your records: replay a round, share it, race it"), "r",
            chip=N_("Records"), chip_id="records"),
    Command("f1,question_mark", "help", N_("Help"), N_("help"), "F1", footer=True, chip=N_("Help"), chip_id="help"),
    Command("g", "language", N_("Language"), N_("the language: English or Deutsch (remembered)"), "g",
            chip=N_("Language"), chip_id="language"),
    Command("q", "quit", N_("Quit"), N_("quit"), "q", footer=True, chip=N_("Quit"), chip_id="quit"),
]

#: The Palast screen's keys (SPEC §13): its bindings and footer, and every line there that names
#: a key (``keys_text(action, PALAST_COMMANDS)``).
PALAST_COMMANDS: list[Command] = [
    Command("o", "open_table", N_("Open a table"), N_("open a table"), "o", footer=True),
    Command("c", "code", N_("Code"), N_("invite code"), "c", footer=True),
    Command("l", "league", N_("League"), N_("league"), "l", footer=True),
    Command("s", "start", N_("Start"), N_("start"), "s", footer=True),
    Command("x", "leave_table", N_("Leave"), N_("leave"), "x", footer=True),
    Command("y", "ready", N_("Ready"), N_("Ready for the next round"), "y", footer=True),
    Command("p", "alone", N_("Play it alone"), N_("play it alone"), "p", footer=True),
    Command("b", "back", N_("Lobby"), N_("back to the lobby"), "b", footer=True),
    Command("t", "to_table", N_("Table"), N_("back to the table"), "t", footer=True),
    Command("r", "refresh", N_("Refresh"), N_("refresh the tables"), "r"),
    # SPEC §16: watching a running table, a table's records ("watch"), the daily board ("Today")
    Command("w", "watch", N_("Watch"), N_("watch a table"), "w", footer=True),
    Command("w", "records", N_("Records"), N_("the records"), "w", footer=True),
    Command("d", "today", N_("Today"), N_("today's board"), "d", footer=True),
    Command("p", "daily_play", N_("Play today"), N_("play today's try at the highlighted suit count"), "p", footer=True),
    Command("escape,q", "quit_palast", N_("Back"), N_("back"), "q", footer=True),
    Command("f1", "help", N_("Help"), N_("help"), "F1", footer=True),
]
#: The other Palast screens' keys: the address and name, the "play here" question, the invite
#: code's line, the Open a table form, and what a race adds to a round's keys.
PALAST_CONNECT_COMMANDS = [Command("escape", "back", N_("Back"), footer=True)]
PALAST_PLAY_HERE_COMMANDS = [Command("y,enter", "answer(True)", N_("Play here"), footer=True),
                             Command("n,escape", "answer(False)", N_("No"), footer=True)]
PALAST_ASK_COMMANDS = [Command("escape", "cancel", N_("Cancel"), footer=True)]
PALAST_OPEN_COMMANDS = [Command("escape,q", "cancel", N_("Cancel"), footer=True),
                        Command("left,minus", "step(-1)", N_("Less"), footer=True),
                        Command("right,plus", "step(1)", N_("More"), footer=True),
                        Command("f1", "help", N_("Help"), footer=True)]
PALAST_RACE_COMMANDS = [Command("x", "leave_table", N_("Leave table"), footer=True)]

#: The replay screen's keys (SPEC §16).
REPLAY_COMMANDS: list[Command] = [
    Command("right,l", "step(1)", N_("Next"), N_("the next step"), "→", "click Next", footer=True, key_display="→"),
    Command("left,h", "step(-1)", N_("Back"), N_("the step before"), "←", "click Back", footer=True, key_display="←"),
    Command("home", "jump(0)", N_("Start"), N_("the start"), N_("Home")),
    Command("end", "jump(1)", N_("End"), N_("the end"), N_("End")),
    Command("space", "play", N_("Play"), N_("play at 1×, at 4×, pause"), "Space", "click Play", footer=True),
    Command("c", "hidden", N_("Cards"), N_("show the hidden cards (or hide them again)"), "c"),
    Command("p", "play_here", N_("Play here"), N_("play from this step as a practice round"), "p", footer=True),
    Command("g", "race", N_("Race"), N_("race this record: the same deal with it as a ghost"), "g", footer=True),
    Command("v", "review", N_("Lost?"), N_("where did I lose it? (the solver walks the line back)"), "v", footer=True),
    Command("x", "share", N_("Share"), N_("copy a spoiler-free line to share"), "x"),
    Command("escape,q", "back", N_("Back"), N_("back"), "q", footer=True),
]
RECORDS_CLOSE = Command("escape,q,r", "close", N_("Back"), keys_text=N_("Esc"), footer=True)
RECORDS_OPEN = Command("enter", "open", N_("Replay"), keys_text="Enter", footer=True)

#: Footer labels that need a shorter word than their chip in some language (the footer shows a
#: label with ``pgettext("footer", label)``; every other label as ``_()`` says it).
FOOTER_WORDS = (
    NP_("footer", "Deal"), NP_("footer", "Undo"), NP_("footer", "Stats"), NP_("footer", "Continue"),
    NP_("footer", "New game"), NP_("footer", "Special rules"), NP_("footer", "Quit"), NP_("footer", "Daily"),
    NP_("footer", "Open a table"), NP_("footer", "Play it alone"), NP_("footer", "Refresh"),
)

#: The keys that close the start screen's lists (Special rules, Daily challenge, Stats).
RULES_MENU_CLOSE = Command("escape,q,o", "close", N_("Done"), keys_text=N_("Esc"))
DAILY_CLOSE = Command("escape,q", "close", N_("Back"), keys_text=N_("Esc"))
STATS_CLOSE = Command("escape,q,s", "close", N_("Back"), keys_text=N_("Esc"))
LESSONS_CLOSE = Command("escape,q,l", "close", N_("Back"), keys_text=N_("Esc"))


class Answer(NamedTuple):
    """One answer of a dialog: the Textual keys that give it, the result it closes with, and its
    chip's words (``""``: a key without a chip) and keys as a player reads them."""

    keys: str
    result: object
    label: str = ""
    keys_text: str = ""

    @property
    def chip_text(self) -> str:
        return f"{_(self.label)} ({_(self.keys_text)})"

    @property
    def action(self) -> str:
        """The chip's action: close the dialog with this answer's result."""
        return f"close({self.result!r})"


def answer_keys(answers: list[Answer]) -> dict[str, object]:
    """A dialog's ``KEYS``: each key and the result it closes with.

    >>> answer_keys(CONFIRM_ANSWERS)
    {'y': True, 'enter': True, 'n': False, 'escape': False}
    """
    return {key: a.result for a in answers for key in a.keys.split(",")}


CONFIRM_ANSWERS = [Answer("y,enter", True, N_("Yes"), "y"), Answer("n,escape", False, N_("No"), "n")]
WON_ANSWERS = [Answer("n", "new", N_("New"), "n"), Answer("r", "retry", N_("Retry"), "r"),
               Answer("escape", "close", N_("Close"), N_("Esc")),
               Answer("s", "stats", "", "s"),  # the footer's s Stats works over Won! too (no chip)
               Answer("x", "share", "", "x")]  # x shares the round (SPEC §16)
HELP_CLOSE = [Answer("escape,f1,q,question_mark", None)]


JOKER_KEY = keys_text("table('joker')")  # named on the table (Jokers: 3 (J)) and in the rules menu


def round_key_commands() -> list[Command]:
    """The commands with keys of their own, column keys first (what the bindings are made of)."""
    return column_commands() + [c for c in ROUND_COMMANDS if c.keys]


def help_keys(translate=_) -> str:
    """The help screen's KEYS section, in the language spoken (``translate=str``: the English).

    >>> help_keys().splitlines()[0]
    "1-9, 0   pick up a column's longest movable group; the same key again: one card fewer"
    """
    return "\n".join(f"{translate(c.keys_text):<8} {translate(c.help)}" for c in ROUND_COMMANDS if c.help)


def readme_table() -> str:
    """The README's key table of a round (Markdown)."""
    rows = ["| | Keys | Mouse |", "|---|---|---|"]
    for c in ROUND_COMMANDS:
        if c.help:
            rows.append(f"| {c.help} | `{c.keys_text}` | {c.mouse} |")
    return "\n".join(rows)


def readme_start_table() -> str:
    """The README's key table of the start screen (Markdown)."""
    rows = ["| Start screen | Keys |", "|---|---|"]
    for c in START_COMMANDS:
        if c.help:
            rows.append(f"| {c.help} | `{c.keys_text}` |")
    return "\n".join(rows)


def readme_replay_table() -> str:
    """The README's key table of the replay screen (Markdown)."""
    rows = ["| Replay | Keys | Mouse |", "|---|---|---|"]
    rows += [f"| {c.help} | `{c.keys_text}` | {c.mouse} |" for c in REPLAY_COMMANDS if c.help]
    return "\n".join(rows)
