"""The rules of Spider: pure Python, no Textual, no I/O, no clock, no randomness (SPEC §1–4).

>>> from spider_tui.engine import Game
>>> g = Game.new(1234, suits=2)
>>> len(g.legal_moves()) > 0
True
"""

from .cards import Card, card_text, parse_card, rank_of, suit_of
from .deal import MAX_DEAL, MIN_DEAL
from .game import DEAL, Game, IllegalMove, Move, PositionError
from .rules import PRESETS, Rules, rules_named

__all__ = [
    "Card", "card_text", "parse_card", "rank_of", "suit_of",
    "MAX_DEAL", "MIN_DEAL",
    "DEAL", "Game", "IllegalMove", "Move", "PositionError",
    "PRESETS", "Rules", "rules_named",
]
