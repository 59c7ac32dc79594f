"""The first seed's Scorpion (SPEC §15): every card of the layout face up, offered as a preset
beside the Palast's Scorpion (which deals as classic Spider, or with Open one column face up)."""

from __future__ import annotations

import pytest

from spider_tui.engine import Game, rules_named
from spider_tui.engine.rules import Rules


def test_the_preset_is_scorpion_with_every_card_face_up():
    r = rules_named("classic-scorpion")
    assert r == Rules(scorpion=True, face_up=True)
    assert r.name == "scorpion+face-up"
    assert rules_named(r.name) == r


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_classic_scorpion_deals_everything_face_up_the_palast_one_does_not(suits):
    seed = Game.new(77, suits=suits, rules="classic-scorpion")
    palast = Game.new(77, suits=suits, rules="scorpion")
    palast_open = Game.new(77, suits=suits, rules="scorpion+open")
    assert seed.down == [0] * 10
    assert palast.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert palast_open.down == [0, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert seed.columns == palast.columns and seed.stock == palast.stock  # same cards, same places


def test_classic_scorpion_plays_by_scorpion_rules():
    g = Game.new(77, suits=4, rules="classic-scorpion")
    assert g.rules.scorpion and g.rules.deals_onto_empty
    # Any face-up card may lead a group: with every card face up, whole columns move.
    assert max(m.count or 0 for m in g.legal_moves() if not m.is_deal) >= 1
    assert g.movable(0) == len(g.columns[0])


def test_round_trip_and_menu_line():
    from spider_tui.rules_menu import lines, toggle

    g = Game.new(3, suits=2, rules="classic-scorpion")
    assert Game.from_text(g.to_text()).to_text() == g.to_text()
    assert toggle(toggle("classic", "scorpion"), "face_up").name == "scorpion+face-up"
    labels = dict(lines("scorpion+face-up"))
    assert "classic Scorpion" in labels["face_up"] and labels["face_up"].startswith("☑")
