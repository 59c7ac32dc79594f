"""Help's learning content (SPEC §15): the seeds' tips, the GLOSSARY, the PALAST section with the
points table by suit count, and the race screen opening help at PALAST."""

from __future__ import annotations

import re
from types import SimpleNamespace

from spider_tui.engine.scoring import JOIN_POINTS, REVEAL_POINTS, RUN_POINTS, WIN_POINTS
from spider_tui.ui import messages
from spider_tui.ui.widgets.dialogs import HELP, Help, help_lines


def section(name: str) -> str:
    """The text of one help section: from its heading to the next all-caps heading."""
    lines = HELP.splitlines()
    start = lines.index(name)
    end = next((i for i in range(start + 1, len(lines)) if re.fullmatch(r"[A-Z][A-Z ]+( \(.*\))?", lines[i])),
               len(lines))
    return "\n".join(lines[start:end])


def test_tips_hold_the_three_missing_seed_tips():
    tips = section("TIPS").lower()
    assert "empty column" in tips and "way back" in tips
    assert "king at the bottom" in tips and "blocks" in tips
    assert "4 suits" in tips and "two or more" in tips and "side by side" in tips


def test_glossary_defines_every_term_in_one_or_two_lines():
    glossary = section("GLOSSARY")
    terms = ["Table (tableau)", "Column", "Stock (talon)", "Deal", "Movable group", "Run", "Empty column",
             "Suit count (level)", "Table (Palast)", "Round", "Round clock", "Points", "Solve bonus", "Joker",
             "Training", "League", "Rating", "Experience"]
    entries = {line[2:].split(":")[0]: line for line in glossary.splitlines() if line.startswith("- ")}
    for term in terms:
        assert term in entries, term
    assert "King down to Ace in one suit" in entries["Run"]
    for term in terms:  # at 80 columns each entry is one or two lines
        assert len(help_lines(entries[term], 76)) <= 2, term


def test_palast_section_has_the_points_table_by_suit_count():
    palast = section("PALAST")
    rows = {line.strip().split("  ")[0]: line for line in palast.splitlines() if line.startswith("  ")}
    assert rows["a run completed"].split()[-3:] == [f"+{RUN_POINTS[k]}" for k in (1, 2, 4)]
    assert rows["a card turned up"].split()[-3:] == [f"+{REVEAL_POINTS[k]}" for k in (1, 2, 4)]
    assert rows["a card joined in suit"].split()[-3:] == [f"+{JOIN_POINTS[k]}" for k in (1, 2, 4)]
    assert rows["an undo"].split()[-3:] == ["-1", "-1", "-1"]
    assert rows["the table cleared"].split()[-3:] == [f"+{WIN_POINTS[k]}" for k in (1, 2, 4)]
    assert "a point for every move" in palast
    for words in ("round clock", "standings", "ready", "ranking by total points", "league rating", "experience"):
        assert words in palast.lower(), words


def test_help_opens_at_a_section():
    help_ = Help(section="PALAST")
    lines = help_.page_lines(50)
    assert lines[help_.top].plain == "PALAST"
    plain = Help()
    plain.page_lines(50)
    assert plain.top == 0


def test_race_screen_opens_help_at_palast():
    from spider_tui.ui.palast.race import RaceScreen

    posted: list = []
    RaceScreen.action_help(SimpleNamespace(post_message=posted.append))
    assert posted == [messages.ShowHelp(section="PALAST")]


async def test_f1_in_a_round_opens_help_at_the_top(make_app):
    app = make_app(deal=1, suits=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.dialog, Help) and app.dialog.top == 0 and app.dialog.section is None
