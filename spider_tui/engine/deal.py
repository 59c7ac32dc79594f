"""Numbered deals and the layout of each game (SPEC §2, §10).

Spider deals are the same as KDE Patience's Spider for the same number:

1. 104 cards: for copy in 1..2, for rank A..K, for slot 0..3: card(rank, suit of slot).
2. Microsoft FreeCell shuffle (32-bit): ``seed = 214013*seed + 2531011``,
   ``r = (seed >> 16) & 0x7fff``, swap ``i-1`` and ``r % i`` for i = 104 … 2.
3. Cards come off the END of the list: 44 face-down round-robin over columns 1..10, 10 face-up
   continuing the round-robin (first to column 5), then 5 stock packets of 10.  Dealing packet k
   gives column 1 the LAST card that went into it.

The rank order never depends on the suit count: the same number puts the same ranks in the
same places at every suit count.

The one-deck games shuffle 52 cards (one copy: for rank A..K, for slot 0..3) with the same
generator, and take cards off the END of the list too:

- Spiderette: the Klondike deal, row by row: row r (r = 0..6) gives one card to each of columns
  r+1..7, the card on column r+1 face up.  Then the stock: packets of 7 and a last packet of 3,
  each packet dealt like Spider's (column 1 gets the LAST card that went into the packet).
- Simple Simon: as KDE Patience deals it: rows of 9, 8, 7, 6, 5, 4, 3 cards onto columns 1..9,
  1..8, …, 1..3, then a row of 10 onto columns 1..10; every card face up, no stock.

Deal codes (SPEC §2, the Palast): ``p-`` and the lower-case, unpadded RFC 4648 base32 of 16
random bytes (26 characters).  A code's deck: the same cards as step 1, shuffled by words from
SHA-256(bytes ‖ 8-byte big-endian counter) for counter 0, 1, …, four big-endian 64-bit words per
digest, for i = n … 2 the next word w (dropped while ``w >= floor(2**64 / i) * i``), swap ``i-1``
and ``w % i``; then dealt as in step 3.  The engine only reads codes; the server draws the bytes
(``secrets.token_bytes(16)``) and names them with ``deal_code``.

The Open rule turns every face-down card up; with Scorpion only the column with the most
face-down cards (the lowest-numbered on a tie) is turned up.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Iterator

from .cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, make_card
from .rules import SIMPLE_SIMON, SPIDER, SPIDERETTE, Rules

MIN_DEAL = 1
MAX_DEAL = 2147483647

SLOT_SUITS = {
    4: (CLUBS, DIAMONDS, HEARTS, SPADES),
    2: (HEARTS, SPADES, HEARTS, SPADES),
    1: (SPADES, SPADES, SPADES, SPADES),
}


#: A deal: a number (solo play, 1…2147483647) or a deal code (``p-`` + 26 base32 letters).
Deal = int | str

CODE_PREFIX = "p-"
CODE_BYTES = 16
_CODE_LETTERS = 26  # base32 of 16 bytes without its "======" padding
_B32 = frozenset("abcdefghijklmnopqrstuvwxyz234567")


def deal_code(raw: bytes) -> str:
    """The deal code of 16 bytes: ``p-`` + their RFC 4648 base32, lower case, unpadded."""
    if not isinstance(raw, bytes) or len(raw) != CODE_BYTES:
        raise ValueError(f"a deal code is made from {CODE_BYTES} bytes")
    return CODE_PREFIX + base64.b32encode(raw).decode("ascii").rstrip("=").lower()


def code_bytes(code: str) -> bytes:
    """The 16 bytes a deal code names; ``ValueError`` with a reason a person can read."""
    if not isinstance(code, str) or not code.startswith(CODE_PREFIX):
        raise ValueError(f"a deal code starts with {CODE_PREFIX!r}, not {code!r}")
    body = code[len(CODE_PREFIX):]
    if len(body) != _CODE_LETTERS:
        raise ValueError(f"a deal code has {_CODE_LETTERS} letters after {CODE_PREFIX!r}, not {len(body)}")
    if not set(body) <= _B32:
        raise ValueError(f"a deal code is written with a-z and 2-7 only, not {code!r}")
    raw = base64.b32decode(body.upper() + "======")
    if deal_code(raw) != code:  # the last letter carries 2 unused bits: only one spelling is a code
        raise ValueError(f"{code!r} is not a deal code (its last letter doesn't fit)")
    return raw


def is_code(deal: object) -> bool:
    return isinstance(deal, str)


def check_deal_number(number: Deal) -> None:
    """A deal number within 1…2147483647, or a well-formed deal code; ``ValueError`` otherwise."""
    if isinstance(number, str):
        code_bytes(number)
        return
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"deal number must be an integer, not {number!r}")
    if not MIN_DEAL <= number <= MAX_DEAL:
        raise ValueError(f"deal number must be {MIN_DEAL}..{MAX_DEAL}, not {number}")


def parse_deal(text: str) -> Deal:
    """A deal as written by a person or a file: ASCII digits (a number) or a deal code.
    ``ValueError`` with the reason."""
    text = text.strip()
    if text[:2].lower() == CODE_PREFIX:
        code = text.lower()  # a person may type it in capitals; base32 reads the same
        code_bytes(code)
        return code
    if not (text.isascii() and text.isdigit()) or len(text) > 20:  # int() takes " 5", "٣", "1_000"
        raise ValueError(f"a deal is a number {MIN_DEAL}..{MAX_DEAL} or a code 'p-…', not {text!r}")
    n = int(text)
    check_deal_number(n)
    return n


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


def _code_words(raw: bytes) -> Iterator[int]:
    """64-bit words from SHA-256(raw ‖ counter as 8 big-endian bytes), counter 0, 1, …; four
    big-endian words per digest, in order."""
    import hashlib  # here, not at the top: only deal codes need it, and every start pays an import

    counter = 0
    while True:
        yield from struct.unpack(">4Q", hashlib.sha256(raw + counter.to_bytes(8, "big")).digest())
        counter += 1


def code_shuffle(cards: list, raw: bytes) -> list:
    """Shuffle a copy of ``cards`` with the words of a deal code's bytes (SPEC §2): for i from
    len down to 2, the next word below ⌊2^64 / i⌋·i (others are dropped), swap i-1 and w mod i."""
    out = list(cards)
    words = _code_words(raw)
    for i in range(len(out), 1, -1):
        limit = (2**64 // i) * i
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % i
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


def shuffled_deck(number: Deal, suits: int, copies: int = 2) -> list[Card]:
    """The shuffled card list of deal ``number`` (a number or a deal code; before dealing,
    dealt from its end)."""
    check_deal_number(number)
    check_suits(suits)
    slots = SLOT_SUITS[suits]
    deck = [make_card(rank, slots[slot]) for _ in range(copies) for rank in range(1, 14) for slot in range(4)]
    if isinstance(number, str):
        return code_shuffle(deck, code_bytes(number))
    return ms_shuffle(deck, number)


Layout = tuple[list[list[Card]], list[int], list[Card]]


def _stock_packets(cards: list[Card], size: int) -> list[Card]:
    """The rest of ``cards`` (taken off the end) as stock in dealing order: packets of ``size``,
    the last one possibly short; column 1 gets the LAST card that went into each packet."""
    stock: list[Card] = []
    while cards:
        packet = [cards.pop() for _ in range(min(size, len(cards)))]
        stock.extend(reversed(packet))
    return stock


def spider_deal(number: Deal, suits: int) -> Layout:
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


def spiderette_deal(number: Deal, suits: int) -> Layout:
    """Spiderette deal ``number``: 7 columns of 1..7 cards (last face up), a stock of 24."""
    cards = shuffled_deck(number, suits, copies=1)
    columns: list[list[Card]] = [[] for _ in range(7)]
    for row in range(7):
        for col in range(row, 7):
            columns[col].append(cards.pop())
    down = [len(c) - 1 for c in columns]
    stock = _stock_packets(cards, 7)
    return columns, down, stock


def simple_simon_deal(number: Deal, suits: int) -> Layout:
    """Simple Simon deal ``number``: 10 columns of 8,8,8,7,6,5,4,3,2,1 cards, all face up."""
    cards = shuffled_deck(number, suits, copies=1)
    columns: list[list[Card]] = [[] for _ in range(10)]
    for width in range(9, 2, -1):
        for col in range(width):
            columns[col].append(cards.pop())
    for col in range(10):
        columns[col].append(cards.pop())
    assert not cards
    return columns, [0] * 10, []


_DEALERS = {SPIDER: spider_deal, SPIDERETTE: spiderette_deal, SIMPLE_SIMON: simple_simon_deal}


def open_columns(down: list[int], rules: Rules) -> list[int]:
    """Face-down counts after the Open rule: all 0; with Scorpion only one column opens,
    the one with the most face-down cards (the lowest-numbered on a tie).  Face up: all 0."""
    if rules.face_up:
        return [0] * len(down)
    if not rules.open:
        return down
    if not rules.scorpion:
        return [0] * len(down)
    most = max(down, default=0)
    out = list(down)
    if most:
        out[down.index(most)] = 0
    return out


def deal_layout(number: Deal, suits: int, rules: Rules) -> Layout:
    """The layout of deal ``number`` for ``rules`` (its game and the Open rule)."""
    check_deal_number(number)
    check_suits(suits)
    columns, down, stock = _DEALERS[rules.variant](number, suits)
    return columns, open_columns(down, rules), stock
