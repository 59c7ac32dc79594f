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
#: The suit counts a deck may have, fewest first: the one list every other module uses.
SUIT_COUNTS: tuple[int, ...] = tuple(SUITS_IN_PLAY)


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


#: Every card's notation text, and every token that reads as a card (each case, ``10`` for ``T``,
#: ``??``): lookups for the hot paths that write and read whole positions (the Palast sends a
#: position with every answer).  ``card_text`` and ``parse_card`` stay the definitions.
CARD_TEXT: dict[Card, str] = {UNKNOWN: UNKNOWN_TEXT}
CARD_OF_TOKEN: dict[str, Card] = {UNKNOWN_TEXT: UNKNOWN}
for _s, _sc in enumerate(SUIT_CHARS):
    for _r, _rc in enumerate(RANK_CHARS, 1):
        CARD_TEXT[make_card(_r, _s)] = _rc + _sc
        for _rt in {_rc, _rc.lower()} | ({"10"} if _rc == "T" else set()):
            for _st in (_sc, _sc.upper()):
                CARD_OF_TOKEN[_rt + _st] = make_card(_r, _s)
del _s, _sc, _r, _rc, _rt, _st


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def with_article(rank: int) -> str:
    """'a 7', 'an 8', 'an Ace', 'a King' — for reasons a player reads."""
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "A8" else "a ") + name


def fits_onto(card: Card, onto: Card) -> bool:
    """Does ``card`` go on ``onto`` (one rank lower, any suit)?

    >>> fits_onto(parse_card("9h"), parse_card("Ts")), fits_onto(parse_card("9h"), parse_card("9s"))
    (True, False)
    """
    return rank_of(onto) == rank_of(card) + 1


def group_fitting_onto(onto: Card, exposed: Card, run: int) -> int | None:
    """How many cards of a run of ``run`` ending in ``exposed`` go on ``onto``, or None: the
    one "fits onto" test every legal-move question asks.

    >>> group_fitting_onto(parse_card("Ts"), parse_card("7h"), 3), group_fitting_onto(parse_card("Ts"), parse_card("7h"), 2)
    (3, None)
    """
    k = rank_of(onto) - rank_of(exposed)
    return k if 1 <= k <= run else None
