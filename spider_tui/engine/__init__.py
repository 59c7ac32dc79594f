"""The rules of Spider: pure Python, no Textual, no I/O, no clock, no randomness (SPEC §1–4, §10).

>>> from spider_tui.engine import Game
>>> g = Game.new(1234, suits=2)
>>> len(g.legal_moves()) > 0
True
>>> Game.new(1234, suits=4, rules="spiderette+joker").rules.name
'spiderette+joker'
"""

from .cards import Card, card_text, parse_card, rank_of, suit_of
from .deal import MAX_DEAL, MIN_DEAL, Deal, deal_code, parse_deal
from .cards import UNKNOWN
from .game import DEAL, JOKER, Game, IllegalMove, Move, Played, PositionError, Refusal, Why
from .rules import CLASSIC, PRESETS, VARIANTS, Rules, rules_named

__all__ = [
    "Card", "card_text", "parse_card", "rank_of", "suit_of",
    "MAX_DEAL", "MIN_DEAL", "Deal", "deal_code", "parse_deal",
    "DEAL", "JOKER", "Game", "IllegalMove", "Move", "Played", "PositionError", "Refusal", "Why", "UNKNOWN",
    "CLASSIC", "PRESETS", "VARIANTS", "Rules", "rules_named",
]
