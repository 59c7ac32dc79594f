"""Numbered deals, the same as KDE Patience's Spider for the same number (SPEC §2).

1. 104 cards: for copy in 1..2, for rank A..K, for slot 0..3: card(rank, suit of slot).
2. Microsoft FreeCell shuffle (32-bit): ``seed = 214013*seed + 2531011``,
   ``r = (seed >> 16) & 0x7fff``, swap ``i-1`` and ``r % i`` for i = 104 … 2.
3. Cards come off the END of the list: 44 face-down round-robin over columns 1..10, 10 face-up
   continuing the round-robin (first to column 5), then 5 stock packets of 10.  Dealing packet k
   gives column 1 the LAST card that went into it.

The rank order never depends on the suit count: the same number puts the same ranks in the
same places at every suit count.
"""

from __future__ import annotations

from .cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, make_card

MIN_DEAL = 1
MAX_DEAL = 2147483647

SLOT_SUITS = {
    4: (CLUBS, DIAMONDS, HEARTS, SPADES),
    2: (HEARTS, SPADES, HEARTS, SPADES),
    1: (SPADES, SPADES, SPADES, SPADES),
}


def check_deal_number(number: int) -> None:
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"deal number must be an integer, not {number!r}")
    if not MIN_DEAL <= number <= MAX_DEAL:
        raise ValueError(f"deal number must be {MIN_DEAL}..{MAX_DEAL}, not {number}")


def check_suits(suits: int) -> None:
    if suits not in SLOT_SUITS:
        raise ValueError(f"suits must be 1, 2 or 4, not {suits!r}")


def ms_shuffle(cards: list, seed: int) -> list:
    """Shuffle a copy of ``cards`` with the Microsoft FreeCell generator."""
    out = list(cards)
    for i in range(len(out), 1, -1):
        seed = (214013 * seed + 2531011) & 0xFFFFFFFF
        j = ((seed >> 16) & 0x7FFF) % i
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


def shuffled_deck(number: int, suits: int, copies: int = 2) -> list[Card]:
    """The shuffled card list of deal ``number`` (before dealing; dealt from its end)."""
    check_deal_number(number)
    check_suits(suits)
    slots = SLOT_SUITS[suits]
    deck = [make_card(rank, slots[slot]) for _ in range(copies) for rank in range(1, 14) for slot in range(4)]
    return ms_shuffle(deck, number)


def spider_deal(number: int, suits: int) -> tuple[list[list[Card]], list[int], list[Card]]:
    """Deal ``number`` as (columns, face-down counts, stock in dealing order)."""
    cards = shuffled_deck(number, suits)
    columns: list[list[Card]] = [[] for _ in range(10)]
    for i in range(54):
        columns[i % 10].append(cards.pop())
    down = [len(c) - 1 for c in columns]
    stock: list[Card] = []
    for _ in range(5):
        packet = [cards.pop() for _ in range(10)]
        stock.extend(reversed(packet))  # column 1 gets the last card that went in
    assert not cards
    return columns, down, stock
