"""SPEC §10 in the app: the special-rules menu, joker, undo off, timed rounds, give up, stats per rules."""

from __future__ import annotations

import re
import tomllib


from .conftest import play_for
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import RulesScreen, StartScreen

SIZE = (100, 30)


def tally(app) -> str:
    """The stock row's tally: runs, score, time left, and the jokers' chip (issue 22 item 15)."""
    jokers = app.screen.query("#jokerchip")
    return str(app.screen.query_one("#done").render()) + (f"  {jokers.first().render()}" if jokers else "")


async def test_rules_menu_sets_the_rules_of_the_next_round(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, RulesScreen)
        # Lines: game, relaxed, open, undo off, scorpion, ...: toggle Scorpion.
        await pilot.press("down", "down", "down", "down", "enter")
        assert app.settings.rules == "scorpion"
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)
        assert "scorpion" in str(app.screen.query_one("#rules").render())
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.table.game.rules.scorpion
    data = tomllib.loads((data_dir / "save.toml").read_text())
    assert data["settings"]["rules"] == "scorpion"


async def test_joker_key_then_column(make_app):
    app = make_app(deal=5, suits=1, rules="joker+scoring")
    async with app.run_test(size=SIZE) as pilot:
        g = app.table.game
        assert "Jokers: 3" in tally(app) and "Score: 0" in tally(app)
        exposed = g.columns[2][-1] & 15
        await pilot.press("J")
        assert app.table.joker_pending
        await pilot.press("3")
        assert g.jokers_left == 2 and g.moves == 1
        assert (g.columns[2][-1] & 15) == exposed - 1
        assert "Jokers: 2" in tally(app)
        assert str(app.screen.query_one("#status").render()).startswith("Joker: ")


async def test_joker_key_is_hidden_without_the_rule(make_app):
    app = make_app(deal=5)
    async with app.run_test(size=SIZE) as pilot:
        assert app.screen.check_action("table", ("joker",)) is False
        await pilot.press("J")
        assert not app.table.joker_pending


async def test_undo_off_disables_undo(make_app):
    app = make_app(deal=3, rules="undo-off")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert app.table.moves == 1
        await pilot.press("u")  # the key says why instead of failing in silence (issue 10)
        assert str(app.screen.query_one("#status").render()) == "Undo is off in this round."
        # No Undo chip to click, and the footer doesn't offer u (issue 22 item 15).
        assert not app.screen.query("#undo")
        assert app.screen.check_action("table", ("undo",)) is False


async def test_timed_round_runs_out_and_counts_as_lost(make_app, data_dir):
    app = make_app(deal=3, rules="fast")
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        # the round's clock runs from the first frame: on a busy machine seconds may have gone by
        assert re.search(r"Time left: (10:00|9:[0-5]\d)", tally(app)), tally(app)
        await pilot.press("d")
        play_for(t, 10 * 60 + 1)  # the clock ran out
        app.screen.tick()
        await pilot.pause()
        assert t.lost and t.over
        assert "Time is up" in str(app.screen.query_one("#status").render())
    data = tomllib.loads((data_dir / "save.toml").read_text())
    assert data["stats"]["fast"]["1"]["played"] == 1
    assert "classic" not in data["stats"]  # classic stats unaffected


def test_scorpion_table_snapshot(snap_compare, make_app):
    assert snap_compare(make_app(deal=1, suits=4, rules="scorpion"), press=["1"], terminal_size=(80, 24))


def test_score_display_snapshot(snap_compare, make_app):
    assert snap_compare(make_app(deal=1, suits=2, rules="joker+scoring"), press=["2", "4", "J", "5"],
                        terminal_size=(100, 30))


def test_spiderette_snapshot(snap_compare, make_app):
    assert snap_compare(make_app(deal=1, suits=4, rules="spiderette"), terminal_size=(80, 24))
