"""One command table (SPEC §7): bindings, footer, help and README are made from it."""

from __future__ import annotations

from pathlib import Path

from spider_tui.commands import ROUND_COMMANDS, readme_table, round_key_commands
from spider_tui.ui.widgets.dialogs import HELP
from spider_tui.ui.screens.game_screen import GameScreen

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_key_table_is_the_command_table():
    assert readme_table() in README.read_text(encoding="utf-8")


def test_every_command_with_words_is_in_the_help():
    keys = HELP[HELP.index("KEYS"):HELP.index("SPECIAL RULES")]
    for c in ROUND_COMMANDS:
        if c.help:
            assert c.help in keys and c.keys_text in keys


def test_the_game_screen_binds_every_key_of_the_table_and_no_other():
    bound = {(b.key, b.action, b.description, b.show) for b in GameScreen.BINDINGS}
    made = {(c.keys, c.action, c.label, c.footer) for c in round_key_commands()}
    assert bound == made
    keys = [k for c in round_key_commands() for k in c.keys.split(",")]
    assert len(keys) == len(set(keys))  # no key does two things
