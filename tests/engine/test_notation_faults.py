"""Issue 9, items 7 and 14: position texts that used to escape PositionError, the deal range, a BOM."""

from __future__ import annotations

import pytest

from spider_tui.engine import MAX_DEAL, Game, PositionError

BASE = "suits: 1\n1: | Ks\n"


@pytest.mark.parametrize("text", [
    "²: | Ks\n",                      # a Unicode digit is not a column number
    "١: | Ks\n",                      # Arabic-Indic one
    "9" * 5000 + ": | Ks\n",          # beyond int()'s digit limit
    "suits: ²\n",
    "moves: " + "9" * 5000 + "\n",
    "deal: ٣\n" + BASE,
    "moves: 1_000\n" + BASE,
    "moves:  +5\n" + BASE,
], ids=["superscript-column", "arabic-column", "5000-digit-column", "superscript-suits", "5000-digit-moves",
        "arabic-deal", "underscore-moves", "plus-moves"])
def test_bad_numbers_are_position_errors(text):
    with pytest.raises(PositionError):
        Game.from_text(text)


def test_deal_beyond_the_range_is_a_position_error():
    """A saved round with ``deal: 99999999999`` must not parse (Retry then crashed on it)."""
    with pytest.raises(PositionError, match="deal"):
        Game.from_text(f"deal: {MAX_DEAL + 1}\n" + BASE)
    with pytest.raises(PositionError):
        Game.from_text("deal: 99999999999\n" + BASE)
    assert Game.from_text(f"deal: {MAX_DEAL}\n" + BASE).deal_number == MAX_DEAL


def test_a_utf8_bom_is_accepted():
    g = Game.from_text("\ufeff" + Game.new(7).to_text())
    assert g.to_text() == Game.new(7).to_text()


def test_score_may_be_negative_but_only_ascii():
    g = Game.from_text("rules: classic+scoring\nscore: -5\n" + BASE)
    assert g.score == -5
    with pytest.raises(PositionError):
        Game.from_text("rules: classic+scoring\nscore: -٥\n" + BASE)
