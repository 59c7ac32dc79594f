"""Reading the game off a terminal screen (lines of text), the way a player looks at it.

Used by the websocket tests (screen from pyte) and the browser test (screen from xterm.js's
buffer).  The rules come from the engine: the deal number on the screen gives the layout, the
engine gives a legal move, and the screen gives where its cards are drawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spider_tui.engine import Game
from spider_tui.engine.cards import rank_of

SUIT_GLYPHS = "♠♥♦♣"
LABEL = re.compile(r"(?:10|[2-9AJQKT])[♠♥♦♣]")


def card_label(card: int) -> re.Pattern[str]:
    """How a card's rank and suit read on the screen: ``10♥`` or ``T♥``, ``K♠``."""
    rank = rank_of(card)
    text = {1: "A", 10: "(?:10|T)", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return re.compile(text + SUIT_GLYPHS[card >> 4])


def text_of(lines: list[str]) -> str:
    return "\n".join(lines)


def find(lines: list[str], text: str) -> tuple[int, int] | None:
    """(x, y) of the first place ``text`` is shown, or None."""
    for y, line in enumerate(lines):
        x = line.find(text)
        if x >= 0:
            return x, y
    return None


def deal_on_screen(lines: list[str]) -> Game:
    """The game of the deal the top bar names (``Deal N · K suit(s)``), as dealt."""
    m = re.search(r"Deal (\d+) · (\d) suits?", text_of(lines))
    assert m, "no 'Deal N · K suits' on the screen:\n" + text_of(lines)
    return Game.new(int(m.group(1)), suits=int(m.group(2)))


@dataclass
class Row:
    """The screen row where the ten exposed cards of a fresh deal begin, and each column's x."""

    y: int
    xs: list[int]


def exposed_row(lines: list[str], game: Game) -> Row:
    """Find the row that shows every column's exposed card, left to right, as the engine dealt them."""
    wanted = [card_label(column[-1]) for column in game.columns]
    for y, line in enumerate(lines):
        found = list(LABEL.finditer(line))
        if len(found) == len(wanted) and all(p.fullmatch(m.group()) for p, m in zip(wanted, found)):
            return Row(y, [m.start() for m in found])
    raise AssertionError("the dealt cards are not shown in one row:\n" + text_of(lines))


def first_card_move(game: Game):
    """A legal move of one or more cards between columns (not a deal), or None."""
    return next((m for m in game.legal_moves() if not m.is_deal), None)


def column_key(column: int) -> str:
    """The key that picks column ``column`` (1-based): 1-9, then 0 for column 10."""
    return "1234567890"[column - 1]


def shown_in_column(lines: list[str], x: int, width: int, card: int, below: int) -> bool:
    """Is ``card``'s label shown in the column starting at ``x`` (``width`` wide) below row ``below``?"""
    pattern = card_label(card)
    for line in lines[below:]:
        for m in LABEL.finditer(line[x:x + width]):
            if pattern.fullmatch(m.group()):
                return True
    return False
