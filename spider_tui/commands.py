"""The commands of a round, in one table: key, action, footer label, help text (SPEC §7).

The game screen's key bindings and footer, the help screen's KEYS section and the README's
key table are all made from :data:`ROUND_COMMANDS`; a test checks the README against it.
Plain Python (no Textual): ``ui/`` turns a :class:`Command` into a binding.

>>> [c.label for c in ROUND_COMMANDS if c.footer]
['Deal', 'Undo', 'Hint', 'Joker', 'Retry', 'New', 'Stats', 'Help', 'Menu']
"""

from __future__ import annotations

from dataclasses import dataclass

COLUMN_KEYS = "1234567890"  # column 1-10


@dataclass(frozen=True)
class Command:
    """One command: Textual key names (comma-separated), the screen's action, the footer label
    (shown when ``footer``), and how the help and the README name the keys and the command."""

    keys: str
    action: str
    label: str
    help: str = ""  # what it does, for the help screen and the README ("" for none)
    keys_text: str = ""  # the keys as a player reads them (help and README)
    mouse: str = ""  # the same with the mouse (README)
    footer: bool = False
    key_display: str | None = None


def column_commands() -> list[Command]:
    """The ten column keys: ``column(0)`` … ``column(9)``."""
    return [Command(k, f"column({i})", f"Col {i + 1}") for i, k in enumerate(COLUMN_KEYS)]


ROUND_COMMANDS: list[Command] = [
    Command("", "", "", "pick up a column's longest movable group; the same key again: one card fewer",
            "1-9, 0", "click a face-up card (the group it leads)"),
    Command("", "", "", "with a group held: put it on that column", "1-9, 0",
            "click a marked column, or drag the card there"),
    Command("left,h", "cursor(-1, 0)", "Left", "move the cursor (or h j k l)", "arrows"),
    Command("right,l", "cursor(1, 0)", "Right"),
    Command("up,k", "cursor(0, -1)", "Up"),
    Command("down,j", "cursor(0, 1)", "Down"),
    Command("space", "table('pick_or_put')", "Pick/put", "pick up / put down at the cursor", "Space"),
    Command("enter", "table('best_move')", "Best move", "best move, or play the hint on show", "Enter",
            "double-click a card"),
    Command("d", "table('deal')", "Deal", "deal", "d", "click Deals", footer=True),
    Command("u", "table('undo')", "Undo", "undo", "u", "click Undo", footer=True),
    Command("question_mark", "table('hint')", "Hint", "hint", "?", "click Hint", footer=True, key_display="?"),
    Command("escape", "escape", "Drop", "drop what you hold; with nothing held: menu", "Esc"),
    Command("J", "table('joker')", "Joker", "joker (Joker rule)", "J", footer=True, key_display="J"),
    Command("g", "give_up", "Give up", "give up", "g"),
    Command("v", "peek", "View column", "see a whole column", "v + 1-0", "click its \"more\" line"),
    Command("w", "still_winnable", "Winnable?", "could this still be won? (the solver peeks at hidden cards: "
            "the round becomes practice; w again stops it)", "w"),
    Command("r", "retry", "Retry", "retry the deal", "r", footer=True),
    Command("n", "new", "New", "new deal", "n", footer=True),
    Command("s", "stats", "Stats", "stats", "s", footer=True),
    Command("f1", "help", "Help", "help", "F1", footer=True),
    Command("q", "leave", "Menu", "start screen; the round is kept for Continue", "q", footer=True),
    Command("", "", "", "quit from anywhere", "Ctrl+Q"),
]


def round_key_commands() -> list[Command]:
    """The commands with keys of their own, column keys first (what the bindings are made of)."""
    return column_commands() + [c for c in ROUND_COMMANDS if c.keys]


def help_keys() -> str:
    """The help screen's KEYS section.

    >>> help_keys().splitlines()[0]
    "1-9, 0   pick up a column's longest movable group; the same key again: one card fewer"
    """
    return "\n".join(f"{c.keys_text:<8} {c.help}" for c in ROUND_COMMANDS if c.help)


def readme_table() -> str:
    """The README's key table (Markdown)."""
    rows = ["| | Keys | Mouse |", "|---|---|---|"]
    for c in ROUND_COMMANDS:
        if c.help:
            rows.append(f"| {c.help} | `{c.keys_text}` | {c.mouse} |")
    return "\n".join(rows)
