"""Cards as small ints, ranks, suits and their text forms (SPEC §3).

A card is an ``int``: ``suit * 16 + rank`` with rank 1 (Ace) … 13 (King) and suit
0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs.  Ints keep the engine fast: comparing,
copying and hashing cards costs nothing, and the hot paths (legal moves, hint) only ever
need ``card & 15`` and ``card >> 4``.

>>> card_text(parse_card("Th"))
'Th'
>>> rank_of(parse_card("Ks")), suit_of(parse_card("Ks"))
(13, 0)
"""

from __future__ import annotations

Card = int

RANK_CHARS = "A23456789TJQK"  # index + 1 = rank
SUIT_CHARS = "shdc"  # index = suit
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
)

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

#: A card the player can't see (``??`` in a view, SPEC §14): rank 0 of no suit, so it never
#: continues a run, never receives a card and never fits anywhere.
UNKNOWN: Card = 64
UNKNOWN_TEXT = "??"
ACE, KING = 1, 13

# Suits each suit count plays with (SPEC §1).
SUITS_IN_PLAY = {1: (SPADES,), 2: (SPADES, HEARTS), 4: (SPADES, HEARTS, DIAMONDS, CLUBS)}


def make_card(rank: int, suit: int) -> Card:
    return suit * 16 + rank


def rank_of(card: Card) -> int:
    return card & 15


def suit_of(card: Card) -> int:
    return card >> 4


def card_text(card: Card) -> str:
    """Notation form: rank char + suit char, e.g. ``Ts``; ``??`` for an unseen card."""
    if card == UNKNOWN:
        return UNKNOWN_TEXT
    return RANK_CHARS[(card & 15) - 1] + SUIT_CHARS[card >> 4]


def parse_card(token: str) -> Card:
    """Parse ``Ts`` / ``10s`` / ``kH`` (or ``??``, an unseen card); raises ``ValueError`` for anything else."""
    t = token.strip()
    if t == UNKNOWN_TEXT:
        return UNKNOWN
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise ValueError(f"not a card: {token!r}")
    r = RANK_CHARS.find(t[0].upper())
    s = SUIT_CHARS.find(t[1].lower())
    if r < 0 or s < 0:
        raise ValueError(f"not a card: {token!r}")
    return make_card(r + 1, s)


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def with_article(rank: int) -> str:
    """'a 7', 'an 8', 'an Ace', 'a King' — for reasons a player reads."""
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "A8" else "a ") + name
