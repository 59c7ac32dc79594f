"""One command table (SPEC §6, §7): bindings, footer, chips, help and README are made from it."""

from __future__ import annotations

from pathlib import Path

from spider_tui import rules_menu
from spider_tui.commands import (CONFIRM_ANSWERS, JOKER_KEY, ROUND_COMMANDS, START_COMMANDS, WON_ANSWERS, chip_text,
                                 readme_start_table, readme_table, round_key_commands)
from spider_tui.ui.widgets.dialogs import HELP, Confirm, Help, Won
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import StartScreen

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


# -- the start screen, the dialogs and the labels that name a key ----------------------------------

def test_the_readme_start_screen_table_is_the_command_table():
    assert readme_start_table() in README.read_text(encoding="utf-8")


def test_the_start_screen_binds_its_commands_and_every_chip_names_its_key():
    bound = {(b.key, b.action, b.description, b.show) for b in StartScreen.BINDINGS}
    assert bound == {(c.keys, c.action, c.label, c.footer) for c in START_COMMANDS}
    keys = [k for c in START_COMMANDS for k in c.keys.split(",")]
    assert len(keys) == len(set(keys))
    for c in START_COMMANDS:
        if c.chip:
            assert c.keys_text in c.keys.replace("f1", "F1").split(",")  # the key the chip names works
            assert chip_text(c) == f"{c.chip} ({c.keys_text})"


def test_dialog_keys_and_chips_come_from_one_list_of_answers():
    assert Confirm.KEYS == {"y": True, "enter": True, "n": False, "escape": False}
    assert Won.KEYS == {"n": "new", "r": "retry", "escape": "close", "s": "stats", "x": "share"}
    assert set(Help.KEYS) == {"escape", "f1", "q", "question_mark"}
    for answers in (CONFIRM_ANSWERS, WON_ANSWERS):
        for a in answers:
            assert a.keys_text.lower().replace("esc", "escape") in a.keys.split(",")  # the chip names a key that answers
    assert [a.chip_text for a in WON_ANSWERS if a.label] == ["New (n)", "Retry (r)", "Close (Esc)"]


def test_labels_that_name_a_key_name_the_bound_key():
    joker = next(c for c in ROUND_COMMANDS if c.action == "table('joker')")
    assert joker.keys == JOKER_KEY
    assert f"(key {JOKER_KEY})" in dict(rules_menu.OPTIONS)["joker"]
    rules = next(c for c in START_COMMANDS if c.action == "rules")
    assert f"SPECIAL RULES (start screen, {rules.keys})" in HELP


def test_the_palast_screen_binds_its_commands_and_its_lines_name_their_keys():
    from spider_tui.commands import PALAST_COMMANDS
    from spider_tui.ui.palast.lobby import LOBBY_KEYS, PalastScreen

    made = {(b.key, b.action, b.description, b.show) for b in PalastScreen.BINDINGS}
    assert made == {(c.keys, c.action, c.label, c.footer) for c in PALAST_COMMANDS}
    assert LOBBY_KEYS == ("Enter/click: sit down · w: watch a table · c: invite code · o: open a table · l: league"
                          " · d: today's board · q: back")


def test_the_readme_replay_table_is_the_command_table():
    from spider_tui.commands import readme_replay_table

    assert readme_replay_table() in README.read_text(encoding="utf-8")


def test_the_replay_screen_binds_every_replay_command():
    from spider_tui.commands import REPLAY_COMMANDS
    from spider_tui.ui.screens.records_screen import ReplayScreen

    bound = {(b.key, b.action) for b in ReplayScreen.BINDINGS}
    assert bound == {(c.keys, c.action) for c in REPLAY_COMMANDS}
    for c in REPLAY_COMMANDS:
        assert hasattr(ReplayScreen, "action_" + c.action.split("(")[0])


def test_every_palast_screen_binds_keys_from_the_command_table_only():
    """Issue 28 item 9: the Palast screens' keys live in ``commands.py`` (none written in a screen),
    and each screen binds exactly its list, keys, labels and footer as they were."""
    import ast

    from spider_tui.commands import (PALAST_ASK_COMMANDS, PALAST_CONNECT_COMMANDS, PALAST_OPEN_COMMANDS,
                                     PALAST_PLAY_HERE_COMMANDS, PALAST_RACE_COMMANDS)
    from spider_tui.ui.palast.connect import ConnectScreen, PlayHere
    from spider_tui.ui.palast.lobby import AskScreen, OpenTableScreen
    from spider_tui.ui.palast.race import RaceScreen

    screens = Path(__file__).resolve().parent.parent / "spider_tui" / "ui" / "palast"
    for path in screens.glob("*.py"):
        calls = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) == "Binding"]
        assert not calls, f"{path.name} writes its own Binding"
    for screen, table in [(ConnectScreen, PALAST_CONNECT_COMMANDS), (PlayHere, PALAST_PLAY_HERE_COMMANDS),
                          (AskScreen, PALAST_ASK_COMMANDS), (OpenTableScreen, PALAST_OPEN_COMMANDS)]:
        made = [(b.key, b.action, b.description, b.show) for b in screen.BINDINGS]
        assert made == [(c.keys, c.action, c.label, c.footer) for c in table], screen
    race = {(b.key, b.action, b.description, b.show) for b in RaceScreen.BINDINGS}
    assert ("x", "leave_table", "Leave table", True) in race
    assert [(c.keys, c.action) for c in PALAST_PLAY_HERE_COMMANDS] == [("y,enter", "answer(True)"),
                                                                        ("n,escape", "answer(False)")]
    assert [(c.keys, c.action) for c in PALAST_OPEN_COMMANDS] == [("escape,q", "cancel"), ("left,minus", "step(-1)"),
                                                                   ("right,plus", "step(1)"), ("f1", "help")]
