"""Position notation (SPEC §3): read and write a Game as text.

```
suits: 2
rules: classic
deal: 1234
moves: 17
stock: 7h 2s Ks 9h 4s Qh Ah 3s 5h Ts
done: s h
1: Qh 3s 7h | 9s 8s
2: | Kh
3: |
```

Cards left of ``|`` are face down, right of it face up (a line with no ``|`` is all face up).
``#`` starts a comment; blank lines are ignored.  Partial positions are allowed.

``format_position`` writes any :class:`~.position.Position` (a ``Game``); ``parse_position``
gives the :class:`~.position.Parts` that ``Game.from_text`` is made of, so this module never
imports ``game``.

A view (``Game.view()``, SPEC §14) writes every card the player can't see as ``??``; reading
one back gives a game whose unseen cards are ``UNKNOWN`` (they count as cards of the deck, so a
view of a whole deal still holds 104).

Rules (SPEC §10): ``rules:`` takes a rules name (``classic``, ``scorpion``,
``spiderette+relaxed+undo-off``; see ``rules.py``).  It decides the column lines (``1:`` … ``7:``
in Spiderette, ``1:`` … ``10:`` otherwise), how many copies of a card the deck holds (one deck
in Spiderette and Simple Simon), and the stock: classic Spider's stock is whole deals of 10;
Spiderette's (packets of 7 and a last one of 3) and any stock under the Joker rule (a joker may
take a stock card) may end with a short packet; Simple Simon has none.  Two lines exist only
under their rule: ``jokers: N`` (jokers left, Joker rule, default 3) and ``score: N`` (Scoring
rule, default 0); both come after ``moves:``.
"""

from __future__ import annotations

from collections import Counter

from .cards import (
    CARD_OF_TOKEN, CARD_TEXT, SUIT_CHARS, SUITS_IN_PLAY, UNKNOWN, UNKNOWN_TEXT, card_text, make_card, parse_card,
)
from .moves import RUN, PositionError
from .position import Parts, Position
from .deal import Deal, parse_deal
from .rules import JOKERS_PER_ROUND, Rules, rules_named

COLUMNS = 10  # classic Spider; a position's rules decide (Rules.columns)
COPIES = {1: 8, 2: 4, 4: 2}  # copies of each card in the 104-card deck, by suit count


def format_position(g: Position, view: bool = False) -> str:
    """``g`` as notation; with ``view`` from the player's side: every face-down card and every
    stock card written ``??`` and no ``deal:`` line (SPEC §13, §14)."""
    lines = [f"suits: {g.suits}", f"rules: {g.rules.name}"]
    if g.deal_number is not None and not view:
        lines.append(f"deal: {g.deal_number}")
    lines.append(f"moves: {g.moves}")
    if g.rules.joker:
        lines.append(f"jokers: {g.jokers_left}")
    if g.score is not None:
        lines.append(f"score: {g.score}")
    if view:
        lines.append("stock: " + (" ".join([UNKNOWN_TEXT] * len(g.stock)) if g.stock else "-"))
    else:
        lines.append("stock: " + (" ".join([CARD_TEXT[c] for c in g.stock]) if g.stock else "-"))
    lines.append("done: " + (" ".join(SUIT_CHARS[s] for s in g.done) if g.done else "-"))
    text = CARD_TEXT.__getitem__
    for i, (cards, down) in enumerate(zip(g.columns, g.down), 1):
        # "N: " + the face-down cards + "|" + the face-up ones, each card followed or led by a space
        hidden = (UNKNOWN_TEXT + " ") * down if view else "".join([CARD_TEXT[c] + " " for c in cards[:down]])
        up = " ".join(map(text, cards[down:]))
        lines.append(f"{i}: {hidden}|{' ' if up else ''}{up}")
    return "\n".join(lines) + "\n"


def _cards(tokens: list[str], lineno: int) -> list[int]:
    out = [CARD_OF_TOKEN.get(tok, -1) for tok in tokens]
    if -1 not in out:
        return out
    out = []
    for tok in tokens:  # one is not a card: say which
        try:
            out.append(parse_card(tok))
        except ValueError:
            raise PositionError(f"unknown token {tok!r} (a card is a rank A23456789TJQK and a suit shdc, or ?? unseen)", lineno) from None
    return out


def _columns_so_far(headers: dict[str, tuple[str, int]]) -> int:
    """Columns of the rules read so far (for an early, line-ordered error message)."""
    try:
        return rules_named(headers["rules"][0] or "classic").columns
    except KeyError:
        return COLUMNS


def _ascii_int(text: str, signed: bool = False) -> int | None:
    """``text`` as a whole number written in ASCII digits (``-`` first if ``signed``), else None.

    ``int()`` alone takes ``²``-like digits, ``1_000``, ``+5`` and spaces, and raises a plain
    ValueError beyond 4300 digits; no number in a position needs more than 20 digits.
    """
    digits = text[1:] if signed and text.startswith("-") else text
    if not digits or len(digits) > 20 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


Headers = dict[str, tuple[str, int]]  # name -> (value, line)
ColumnLines = dict[int, tuple[list[int], int, int]]  # column (1-based) -> (cards, face-down count, line)


def _read_lines(text: str) -> tuple[Headers, ColumnLines]:
    """The header lines and the column lines of ``text``, each checked on its own."""
    text = text.removeprefix("\ufeff")  # a UTF-8 BOM from an editor
    headers: Headers = {}
    columns: ColumnLines = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not sep:
            raise PositionError(f"expected 'name: value', got {line!r}", lineno)
        if key[:1].isdigit():
            col = _ascii_int(key)
            if col is None:
                shown = key if len(key) <= 12 else key[:12] + "..."
                raise PositionError(f"unknown line {shown!r} (a column is a number 1-{_columns_so_far(headers)})", lineno)
            if not 1 <= col <= COLUMNS:
                raise PositionError(f"there is no column {col} (columns are 1-{_columns_so_far(headers)})", lineno)
            if col in columns:
                raise PositionError(f"column {col} is given twice", lineno)
            tokens = value.split()
            if tokens.count("|") > 1:
                raise PositionError("a column has at most one '|'", lineno)
            if "|" in tokens:
                bar = tokens.index("|")
                down_t, up_t = tokens[:bar], tokens[bar + 1 :]
            else:
                down_t, up_t = [], tokens
            down, up = _cards(down_t, lineno), _cards(up_t, lineno)
            if down and not up:
                raise PositionError(f"column {col} has cards but no face-up card", lineno)
            columns[col] = (down + up, len(down), lineno)
        elif key in ("suits", "rules", "deal", "moves", "stock", "done", "jokers", "score"):
            if key in headers:
                raise PositionError(f"'{key}:' is given twice", lineno)
            headers[key] = (value, lineno)
        else:
            raise PositionError(f"unknown line {key!r}", lineno)

    return headers, columns


def parse_position(text: str) -> Parts:
    """The parts of the position ``text`` (notation); raises ``PositionError`` naming the line."""
    headers, columns = _read_lines(text)

    def header_int(name: str, default: int | None, lo: int | None, hi: int | None = None) -> int | None:
        if name not in headers:
            return default
        value, ln = headers[name]
        v = _ascii_int(value, signed=lo is None or lo < 0)
        if v is None:
            raise PositionError(f"'{name}:' wants a number, not {value!r}", ln)
        if lo is not None and v < lo:
            raise PositionError(f"'{name}:' must be at least {lo}", ln)
        if hi is not None and v > hi:
            raise PositionError(f"'{name}:' must be at most {hi}", ln)
        return v

    def header_deal() -> Deal | None:
        if "deal" not in headers:
            return None
        value, ln = headers["deal"]
        try:
            return parse_deal(value)
        except ValueError as e:
            raise PositionError(f"'deal:' {e}", ln) from None

    # Rules first: they decide the columns, the deck and the stock.
    rules_value = headers.get("rules", ("classic", 0))
    try:
        rules = rules_named(rules_value[0] or "classic")
    except KeyError as e:
        raise PositionError(str(e.args[0]), rules_value[1] or None) from None
    n_columns = rules.columns
    for col in sorted(columns):
        if col > n_columns:
            game = "" if rules.variant == "spider" else f" in {rules.variant}"
            raise PositionError(f"there is no column {col} (columns are 1-{n_columns}{game})", columns[col][2])

    # Suits: given, or the smallest deck that holds the cards shown.
    suits = header_int("suits", None, 1)
    if suits is not None and suits not in COPIES:
        raise PositionError(f"suits must be 1, 2 or 4, not {suits}", headers["suits"][1])

    stock: list[int] = []
    if "stock" in headers:
        value, ln = headers["stock"]
        if value not in ("", "-"):
            stock = _cards(value.split(), ln)
            if not rules.has_stock:
                raise PositionError(f"{rules.variant} has no stock", ln)
            short_ok = rules.joker or rules.variant != "spider"
            if len(stock) % n_columns and not short_ok:
                raise PositionError(f"the stock has {len(stock)} cards, not a whole number of deals of {n_columns}", ln)
    done: list[int] = []
    if "done" in headers:
        value, ln = headers["done"]
        if value not in ("", "-"):
            for tok in value.split():
                if len(tok) != 1 or tok.lower() not in SUIT_CHARS:
                    raise PositionError(f"unknown token {tok!r} in 'done:' (a suit is s, h, d or c)", ln)
                done.append(SUIT_CHARS.index(tok.lower()))

    if suits is None:
        used = {c >> 4 for col in columns.values() for c in col[0] if c != UNKNOWN}
        used |= {c >> 4 for c in stock if c != UNKNOWN} | set(done)
        suits = 1 if used <= {0} else 2 if used <= {0, 1} else 4
    _check_copies(columns, stock, done, headers, suits, rules)

    total = sum(len(columns[c][0]) for c in columns) + len(stock) + RUN * len(done)
    if total > rules.card_total:
        raise PositionError(f"the position has {total} cards; the deck holds {rules.card_total}")

    for name, rule in (("jokers", "joker"), ("score", "scoring")):
        if name in headers and not getattr(rules, rule):
            raise PositionError(f"'{name}:' needs the {rule} rule in 'rules:'", headers[name][1])

    cols = [list(columns[i][0]) if i in columns else [] for i in range(1, n_columns + 1)]
    down = [columns[i][1] if i in columns else 0 for i in range(1, n_columns + 1)]
    return Parts(
        cols, down, stock, done,
        suits=suits, rules=rules,
        deal_number=header_deal(),
        moves=header_int("moves", 0, 0) or 0,
        jokers_left=header_int("jokers", JOKERS_PER_ROUND, 0, JOKERS_PER_ROUND),
        score=header_int("score", 0, None),
    )


def _check_copies(columns: ColumnLines, stock: list[int], done: list[int], headers: Headers, suits: int,
                  rules: Rules) -> None:
    """Every card: a suit the deck has, no more copies than the deck holds.  The fault is
    reported on the line where the first card too many appears."""
    allowed = set(SUITS_IN_PLAY[suits])
    copies = rules.copies(suits)
    counts: Counter[int] = Counter()

    def count(card: int, ln: int) -> None:
        if card == UNKNOWN:
            return  # an unseen card (a view): any card the deck still has
        if (card >> 4) not in allowed:
            raise PositionError(f"{card_text(card)}: a {suits}-suit game has no {SUIT_CHARS[card >> 4]} cards", ln)
        counts[card] += 1
        if counts[card] > copies:
            deck = f"a {suits}-suit deck" if rules.decks == 2 else f"a one-deck {suits}-suit game"
            raise PositionError(f"{card_text(card)} appears {counts[card]} times; {deck} holds {copies}", ln)

    seen = Counter(c for col in columns.values() for c in col[0])
    seen.update(stock)
    for s in done:
        seen.update(make_card(r, s) for r in range(1, RUN + 1))
    seen.pop(UNKNOWN, None)
    if any((c >> 4) not in allowed or n > copies for c, n in seen.items()):
        # Some card is wrong: walk the position in order to name it on its line.
        for col in sorted(columns):
            cards, _, ln = columns[col]
            for c in cards:
                count(c, ln)
        for c in stock:
            count(c, headers["stock"][1])
        for s in done:
            for r in range(1, RUN + 1):
                count(make_card(r, s), headers["done"][1])
