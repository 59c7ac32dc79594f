"""Game: the state of one round, its legal moves, play and undo (SPEC §1, §3, §10).

The state is mutated in place and every action appends one entry to an action log, so
``undo`` is exact and cheap: no copies of the table are ever made.  The rule options of
``Rules`` (Relaxed, Open, Undo off, Scorpion, Joker, Scoring, …) and the one-deck games
(Spiderette, Simple Simon) all play through the same ``Game``; Scorpion's move generation
lives in ``scorpion.py``, the hint in ``hint.py``, the text forms in ``notation.py`` (those
three read a ``Game`` through ``position.Position`` and never import this module), the score
table in ``scoring.py``.

>>> g = Game.new(1, suits=1)
>>> g.deals_left, g.moves
(5, 0)
>>> g.play("deal") == DEAL
True
>>> g.moves
1
>>> g.undo(), g.moves
(True, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from . import scorpion
from .hint import best_hint
from .notation import format_position, parse_position
from .cards import (ACE, KING, SUITS_IN_PLAY, UNKNOWN, Card, card_text, fits_onto, group_fitting_onto, parse_card,
                    rank_name, rank_of)
from .deal import Deal, check_deal_number, check_suits, deal_layout
from .rules import CLASSIC, Rules, rules_named
from .scoring import UNDO_POINTS, action_points, layout_joins, win_bonus
from .moves import DEAL, JOKER, RUN, IllegalMove, Move, Played, PositionError, Refusal, Why

__all__ = ["DEAL", "JOKER", "RUN", "Game", "IllegalMove", "Move", "Played", "PositionError", "Refusal", "Why"]

#: The codes of ``Game.joker_refusal`` are ``Why``'s, like every refusal of the engine (the old name stays).
JokerCode = Why


class Game:
    """One round of Spider (or Spiderette, or Simple Simon) under some ``Rules``.

    Public state (read it, don't assign it): ``columns`` (lists of cards, bottom first),
    ``down`` (face-down count per column), ``stock`` (cards in dealing order), ``done``
    (suits of completed runs), ``moves``, ``suits``, ``rules``, ``deal_number``,
    ``runs_to_win``, ``jokers_left`` (0 without the Joker rule), ``score`` (``None`` without
    the Scoring rule) and ``lost`` (the round was given up).
    """

    __slots__ = (
        "columns", "down", "stock", "done", "moves", "suits", "rules", "deal_number", "_log",
        "runs_to_win", "jokers_left", "score", "lost", "_paid",
    )

    def __init__(
        self,
        columns: list[list[Card]],
        down: list[int],
        stock: list[Card],
        done: list[int] | None = None,
        *,
        suits: int = 1,
        rules: Rules = CLASSIC,
        deal_number: Deal | None = None,
        moves: int = 0,
        runs_to_win: int | None = None,
        jokers_left: int | None = None,
        score: int | None = None,
        lost: bool = False,
    ):
        self.columns = columns
        self.down = down
        self.stock = stock
        self.done = list(done or [])
        self.suits = suits
        self.rules = rules
        self.deal_number = deal_number
        self.moves = moves
        self.runs_to_win = rules.runs_to_win if runs_to_win is None else runs_to_win
        self.jokers_left = (rules.jokers if jokers_left is None else jokers_left) if rules.joker else 0
        self.score = (score or 0) if rules.scoring else None
        self.lost = lost
        self._log: list[tuple] = []
        # Scoring only (SPEC §10: a join pays once per card per round): beside each column, per
        # card, whether that card has already paid its join.  The flags travel with the cards.
        # A position read from text has no history: a card lying on its own suit has paid.
        self._paid: list[list[bool]] | None = joined_flags(columns, down) if rules.scoring else None

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, number: Deal, suits: int = 1, rules: str | Rules = "classic") -> "Game":
        """Deal ``number`` (1…2147483647, or a deal code ``p-…``, SPEC §2) at ``suits`` (1, 2 or 4) under ``rules`` (a name such
        as ``"scorpion"`` or ``"spiderette+joker"``, or a ``Rules``).  Spider deals are KDE
        Patience's; the one-deck games use the same generator over 52 cards (docs/rules.md)."""
        check_deal_number(number)
        check_suits(suits)
        if isinstance(rules, str):
            rules = rules_named(rules)
        columns, down, stock = deal_layout(number, suits, rules)
        score = action_points(suits, joins=layout_joins(columns, down)) if rules.scoring else None
        return cls(columns, down, stock, suits=suits, rules=rules, deal_number=number, score=score)

    @classmethod
    def from_text(cls, text: str) -> "Game":
        """Read position notation (SPEC §3); raises ``PositionError``."""
        p = parse_position(text)
        return cls(p.columns, p.down, p.stock, p.done, suits=p.suits, rules=p.rules, deal_number=p.deal_number,
                   moves=p.moves, jokers_left=p.jokers_left, score=p.score)

    def to_text(self) -> str:
        """Canonical position notation; ``Game.from_text(g.to_text())`` round-trips."""
        return format_position(self)

    def view(self) -> str:
        """The position from the player's side (SPEC §13, §14): notation with ``??`` for every
        face-down and stock card and no ``deal:`` line.  ``Game.from_text`` reads it back into a
        game that plays like any other (unseen cards stay ``??`` until ``tell``)."""
        return format_position(self, view=True)

    def key(self) -> tuple:
        """A hashable canonical key of the position: columns with their face-down counts, the
        stock, the completed runs (as a multiset), jokers left and whether it was given up.
        Equal positions reached by different paths have equal keys; moves and score are not part
        of it."""
        return (
            tuple(map(tuple, self.columns)), tuple(self.down), tuple(self.stock),
            tuple(sorted(self.done)), self.jokers_left, self.lost,
        )

    @property
    def unknown(self) -> list[int]:
        """Columns (0-based) with a face-up card not known yet (a view waiting to be told)."""
        return [i for i, (cards, d) in enumerate(zip(self.columns, self.down)) if UNKNOWN in cards[d:]]

    def copy(self) -> "Game":
        """An independent copy of the position (without undo history; which cards have paid
        their join is kept)."""
        g = Game(
            [list(c) for c in self.columns], list(self.down), list(self.stock), list(self.done),
            suits=self.suits, rules=self.rules, deal_number=self.deal_number, moves=self.moves,
            runs_to_win=self.runs_to_win, jokers_left=self.jokers_left, score=self.score, lost=self.lost,
        )
        if self._paid is not None:
            g._paid = [list(f) for f in self._paid]
        return g

    def join_paid(self, col: int, index: int) -> bool:
        """Whether card ``index`` of column ``col`` (0-based) has paid its same-suit join this
        round (SPEC §10); always False without the Scoring rule."""
        return self._paid is not None and self._paid[col][index]

    # ------------------------------------------------------------------ queries
    @property
    def deal_size(self) -> int:
        """Cards in a full deal: one per column (10, or 7 in Spiderette)."""
        return len(self.columns)

    @property
    def deals_left(self) -> int:
        """Deals the stock still holds; a short last packet (Spiderette's 3 cards, or after a
        joker took a stock card) counts as one deal."""
        return -(-len(self.stock) // self.deal_size)

    @property
    def won(self) -> bool:
        return not self.stock and not any(self.columns)

    @property
    def over(self) -> bool:
        """The round has ended: won, or given up."""
        return self.lost or self.won

    @property
    def scoring(self) -> bool:
        """Whether this round keeps a score (``score`` is an int, not None)."""
        return self.rules.scoring

    @property
    def can_undo(self) -> bool:
        """Whether a player may undo now: there is an action to revert, undo is allowed and the
        round is not over (after a win the table offers no undo, though ``undo()`` steps back)."""
        return bool(self._log) and self.rules.undo_allowed and not self.lost and not self.won

    @property
    def last_was_joker(self) -> bool:
        """Whether the action ``undo`` would revert is a joker (the Palast keeps jokers final:
        undoing one would tell where a face-down card lies, SPEC §13)."""
        return bool(self._log) and self._log[-1][0] == "j"

    def card_count(self) -> int:
        """Cards on the table + stock + 13 × completed runs (104, or 52 in the one-deck games)."""
        return sum(map(len, self.columns)) + len(self.stock) + RUN * len(self.done)

    def run_length(self, col: int) -> int:
        """Length of the same-suit descending run at the end of column ``col`` (0-based), face up."""
        cards = self.columns[col]
        n = len(cards)
        if n == 0:
            return 0
        lo = self.down[col]
        i = n - 1
        c = cards[i]
        if c == UNKNOWN:
            return 0  # not known yet (a view waiting to be told): it moves nowhere
        while i > lo:
            p = cards[i - 1]
            if p != c + 1:  # same suit and one rank higher <=> exactly +1 in this encoding
                break
            c = p
            i -= 1
        return n - i

    def movable(self, col: int) -> int:
        """How many cards of column ``col`` (0-based) can move together: its longest movable group
        (the same-suit run; under Scorpion every face-up card)."""
        if self.rules.scorpion:
            return scorpion.movable(self, col)
        return self.run_length(col)

    def group_fitting(self, src: int, dst: int) -> int | None:
        """Size of the group from ``src`` that can go onto ``dst`` (0-based), or ``None``.

        Onto an empty column this is the longest movable group (under Scorpion: the largest
        group led by a King).
        """
        if self.rules.scorpion:
            return scorpion.group_fitting(self, src, dst)
        run = self.run_length(src)
        if run == 0 or src == dst:
            return None
        target = self.columns[dst]
        if not target:
            return run
        return group_fitting_onto(target[-1], self.columns[src][-1], run)

    def deal_refusal(self) -> Refusal | None:
        """Why a deal is not allowed now (a ``Refusal``), or ``None`` when it is."""
        if self.won:
            return Refusal(Why.WON)
        if self.lost:
            return Refusal(Why.OVER)
        if not self.stock:
            return Refusal(Why.STOCK_EMPTY if self.rules.has_stock else Why.NO_STOCK)
        if not all(self.columns) and not self.rules.deals_onto_empty:
            return Refusal(Why.FILL_COLUMNS)
        return None

    def move_refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` (with a count) is not legal now, or ``None`` when it is."""
        if move.is_deal:
            return self.deal_refusal()
        if move.is_joker:
            return self.joker_refusal(move.target)
        if self.lost:
            return Refusal(Why.OVER)
        n = len(self.columns)
        s, t, k = move.source, move.target, move.count
        if not (0 <= s < n and 0 <= t < n):
            return Refusal(Why.NO_COLUMN, columns=n)
        if s == t:
            return Refusal(Why.OWN_COLUMN)
        src = self.columns[s]
        if not src:
            return Refusal(Why.EMPTY, column=s + 1)
        face_up = len(src) - self.down[s]
        if k is None or k < 1:
            return Refusal(Why.AT_LEAST_ONE)
        if k > face_up:
            return Refusal(Why.FEW_FACE_UP, column=s + 1, count=face_up)
        if UNKNOWN in src[-k:]:
            return Refusal(Why.UNSEEN, column=s + 1)
        if dst_unknown(self.columns[t]):
            return Refusal(Why.UNSEEN, column=t + 1)
        if self.rules.scorpion:
            return scorpion.move_refusal(self, s, t, k)
        if k > self.run_length(s):
            return Refusal(Why.NOT_A_RUN)
        lead = src[-k]
        dst = self.columns[t]
        if dst and not fits_onto(lead, dst[-1]):
            if rank_of(lead) == KING:
                return Refusal(Why.KING_TO_EMPTY)
            return Refusal(Why.NO_FIT, rank=rank_of(lead), onto=rank_of(lead) + 1)
        return None

    def resolve(self, move: Move | str) -> Move:
        """A legal, complete ``Move`` for ``move`` (text or Move); raises ``IllegalMove``.

        ``3>7`` with no count means the group that fits column 7, or the longest movable
        group when column 7 is empty.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if move.is_joker:
            move = Move(JOKER, move.target, 1)
        elif not move.is_deal and move.count is None:
            n = len(self.columns)
            s, t = move.source, move.target
            if 0 <= s < n and 0 <= t < n and s != t and self.columns[s]:
                k = self.group_fitting(s, t)
                if k is None:
                    # No group fits: explain with the exposed card, the move a player meant.
                    k = 1
                move = Move(s, t, k)
            else:
                move = Move(s, t, 1)
        reason = self.move_refusal(move)
        if reason:
            raise IllegalMove(reason)
        return move

    def is_legal(self, move: Move | str) -> bool:
        try:
            self.resolve(move)
        except IllegalMove:
            return False
        return True

    def legal_moves(self) -> list[Move]:
        """Every legal group move (every size into an empty column) and the deal.

        Jokers are not listed here (code written for classic rules never meets one):
        ``legal_jokers()`` lists them.
        """
        if self.lost:
            return []
        if self.rules.scorpion:
            return scorpion.legal_moves(self)
        out: list[Move] = []
        cols = self.columns
        n = len(cols)
        runs = [self.run_length(i) for i in range(n)]
        for s in range(n):
            run = runs[s]
            if not run:
                continue
            exposed = cols[s][-1]
            for t in range(n):
                if t == s:
                    continue
                dst = cols[t]
                if dst:
                    k = group_fitting_onto(dst[-1], exposed, run)
                    if k is not None:
                        out.append(Move(s, t, k))
                else:
                    for k in range(run, 0, -1):
                        out.append(Move(s, t, k))
        if self.deal_refusal() is None:
            out.append(DEAL)
        return out

    def _has_progress_move(self) -> bool:
        if self.rules.scorpion:
            return scorpion.has_progress_move(self)
        cols = self.columns
        n = len(cols)
        for s in range(n):
            run = self.run_length(s)
            if not run:
                continue
            exposed = cols[s][-1]
            whole = run == len(cols[s])
            for t in range(n):
                if t == s:
                    continue
                dst = cols[t]
                if dst:
                    if group_fitting_onto(dst[-1], exposed, run) is not None:
                        return True
                elif not whole or run > 1:
                    # Any group except the whole column is a real move into an empty column.
                    return True
        return False

    @property
    def stuck(self) -> bool:
        """No legal move, no legal deal and no joker to play (a whole column into an empty one
        doesn't count as a move).  A round that is over is not stuck."""
        if self.won or self.lost:
            return False
        if self.deal_refusal() is None or self._has_progress_move():
            return False
        return not (self.jokers_left and self.legal_jokers())

    def hint(self) -> Move | None:
        """The fixed-order hint of SPEC §4 (under Scorpion with Scorpion's moves); never a joker."""
        if self.lost:
            return None
        return best_hint(self)

    # ------------------------------------------------------------------ jokers
    def _joker_wanted(self, t: int) -> list[Card]:
        """Cards that would match column ``t`` (0-based), best first."""
        dst = self.columns[t]
        in_play = SUITS_IN_PLAY[self.suits]
        if not dst:
            return [suit * 16 + KING for suit in in_play]
        top = dst[-1]
        rank = top & 15
        if rank == ACE:
            return []
        same = top - 1
        if self.rules.scorpion:
            return [same]
        return [same] + [suit * 16 + rank - 1 for suit in in_play if suit != top >> 4]

    def _joker_source(self, card: Card) -> tuple | None:
        """Where the joker takes ``card`` from: ("stock", i) the copy dealt last; else
        ("down", col, i) a face-down copy, lowest column, nearest the bottom; else
        ("up", col) an exposed copy, lowest column.  None when no copy may be taken."""
        stock = self.stock
        for i in range(len(stock) - 1, -1, -1):
            if stock[i] == card:
                return ("stock", i)
        cols, down = self.columns, self.down
        for c in range(len(cols)):
            cards = cols[c]
            for i in range(down[c]):
                if cards[i] == card:
                    return ("down", c, i)
        for c in range(len(cols)):
            if cols[c] and cols[c][-1] == card:
                return ("up", c)
        return None

    def joker_choice(self, column: int) -> tuple[Card, tuple] | None:
        """The card a joker on ``column`` (0-based) would bring and where from, or None."""
        for card in self._joker_wanted(column):
            where = self._joker_source(card)
            if where is not None:
                return card, where
        return None

    def joker_refusal(self, column: int) -> Refusal | None:
        """Why a joker can't be played on ``column`` (0-based) now (a ``Refusal``: the words, and
        its ``code`` for a program to decide on), or ``None`` when it can."""
        if not self.rules.joker:
            return Refusal(Why.NO_JOKERS)
        if self.won:
            return Refusal(Why.WON)
        if self.lost:
            return Refusal(Why.OVER)
        if self.jokers_left < 1:
            return Refusal(Why.NONE_LEFT)
        n = len(self.columns)
        if not 0 <= column < n:
            return Refusal(Why.NO_COLUMN, columns=n)
        dst = self.columns[column]
        if dst and dst[-1] & 15 == ACE:
            return Refusal(Why.ON_ACE)
        if UNKNOWN in self.stock or any(UNKNOWN in c[:d] for c, d in zip(self.columns, self.down)):
            # A view can't know which card a joker brings or where from.
            return Refusal(Why.VIEW)
        if self.joker_choice(column) is None:
            if not dst:
                return Refusal(Why.NO_CARD, rank=KING)
            if self.rules.scorpion:
                return Refusal(Why.NO_CARD, rank=(dst[-1] & 15) - 1, suit=dst[-1] >> 4)
            return Refusal(Why.NO_CARD, rank=(dst[-1] & 15) - 1)
        return None

    def legal_jokers(self) -> list[Move]:
        """A joker move (``joker>N``) for every column a joker can be played on now."""
        if not self.rules.joker or self.jokers_left < 1 or self.lost or self.won:
            return []
        available = set(self.stock)
        for cards, d in zip(self.columns, self.down):
            available.update(cards[:d])
            if cards:
                available.add(cards[-1])
        out = []
        for t in range(len(self.columns)):
            if any(card in available for card in self._joker_wanted(t)):
                out.append(Move(JOKER, t, 1))
        return out

    def play_joker(self, column: int) -> Move:
        """Play a joker on ``column`` (0-based, like ``Move``): it receives a matching card.
        Same as ``play(f"joker>{column + 1}")``; raises ``IllegalMove``."""
        return self.play(Move(JOKER, column, 1))

    # ------------------------------------------------------------------ actions
    def play(self, move: Move | str) -> Played:
        """Make ``move``; returns what it did (a ``Played``, equal to the complete Move played).
        Raises ``IllegalMove``, state unchanged."""
        if self.won:
            raise IllegalMove(Refusal(Why.WON))
        if self.lost:
            raise IllegalMove(Refusal(Why.OVER))
        m = self.resolve(move)
        if m.is_deal:
            self._deal()
        elif m.is_joker:
            self._joker(m.target)
        else:
            assert m.count is not None  # resolve() filled it in
            self._move(m.source, m.target, m.count)
        self.moves += 1
        if self.score is not None:
            self.score += self._log[-1][-1]
            if self.won:
                self._add_points(win_bonus(self.suits, self.moves, self.jokers_left))
        return self._played(m)

    def _add_points(self, points: int) -> None:
        """Book ``points`` on the last action (so undo takes them back)."""
        entry = self._log[-1]
        self._log[-1] = entry[:-1] + (entry[-1] + points,)
        if self.score is not None:
            self.score += points

    def _played(self, m: Move) -> Played:
        """The ``Played`` of the last action in the log."""
        entry = self._log[-1]
        turned: list[tuple[int, Card]] = []
        completed: list[tuple[int, int]] = []
        dealt: tuple[Card, ...] = ()

        def run_left(col: int, c: tuple[int, bool] | None) -> None:
            if c:
                completed.append((col, c[0]))
                if c[1]:
                    turned.append((col, self.columns[col][-1]))

        if entry[0] == "m":
            _, s, t, _k, flipped, done_t, left_run, _joined, points = entry
            if flipped:
                turned.append((s, self.columns[s][-1]))
            run_left(s, left_run)
            run_left(t, done_t)
        elif entry[0] == "d":
            _, row, done_d, points = entry
            dealt = tuple(row)
            for col, c in done_d:
                run_left(col, c)
        else:
            _, t, _card, where, flipped, done_t, left_run, _was_paid, points = entry
            if flipped:
                turned.append((where[1], self.columns[where[1]][-1]))
            run_left(where[1], left_run)
            run_left(t, done_t)
        return Played(m.source, m.target, m.count, tuple(turned), dealt, tuple(completed), points if self.score is not None else 0)

    # ------------------------------------------------------------------ views
    def tell(self, cards: Mapping[int, Card | str] | Iterable[tuple[int, Card | str]]) -> Played | None:
        """Tell a view which cards turned up: ``{column: card}`` or ``(column, card)`` pairs
        (0-based columns, cards as ints or text like ``"Ts"``).  Each card replaces the lowest
        ``??`` face-up card of its column.  Call it right after the action that turned them up
        (the server's answer), before the next action.  A dealt card told here that lands on its
        own suit, or completes a run, scores and completes as in the full game (a card the view
        already shows face up in that column, as after an undo, is accepted); the return value
        says what that caused (a run completed, and the card it turned up, still ``??``), or
        ``None`` when nothing.  Raises ``ValueError`` (nothing changed) for a column without an
        unseen face-up card or a card the deck doesn't have."""
        pairs = list(cards.items()) if isinstance(cards, Mapping) else list(cards)
        plan: list[tuple[int, int, Card]] = []
        taken: set[tuple[int, int]] = set()
        for column, card in pairs:
            if isinstance(card, str):
                card = parse_card(card)
            if not isinstance(column, int) or not 0 <= column < len(self.columns):
                raise ValueError(f"there is no column {column!r} (0-based)")
            if card == UNKNOWN or (card >> 4) not in SUITS_IN_PLAY[self.suits] or not 1 <= card & 15 <= KING:
                raise ValueError(f"{card_text(card)} is not a card of this {self.suits}-suit deck")
            col = column
            cards_c, d = self.columns[col], self.down[col]
            for i in range(d, len(cards_c)):
                if cards_c[i] == UNKNOWN and (col, i) not in taken:
                    taken.add((col, i))
                    plan.append((col, i, card))
                    break
            else:
                if card in cards_c[d:]:
                    continue  # already known (turned up again after an undo)
                raise ValueError(f"column {column + 1} has no unseen face-up card to tell")
        last = self._log[-1] if self._log else None
        joins = 0
        for col, i, card in plan:
            cards_c = self.columns[col]
            cards_c[i] = card
            if last and last[0] == "d" and i == len(cards_c) - 1 and col < len(last[1]) and last[1][col] == UNKNOWN:
                # A dealt card: it may join its own suit (the card under it is face up).
                if i > 0 and i - 1 >= self.down[col] and cards_c[i - 1] == card + 1:
                    joins += 1
                    if self._paid is not None:
                        self._paid[col][i] = True
                row = list(last[1])
                row[col] = card
                last = (last[0], row) + last[2:]
        if last is None or last[0] != "d":
            return None
        completed = list(last[2])
        fresh = []
        for col, _i, _card in plan:
            c = self._complete(col)
            if c:
                completed.append((col, c))
                fresh.append((col, c))
        points = self._points(0, joins, *(c for _, c in fresh))
        self._log[-1] = (last[0], last[1], completed, last[3])
        if points:
            self._add_points(points)
        if self.won and self.score is not None:
            self._add_points(win_bonus(self.suits, self.moves, self.jokers_left))
        if not fresh and not points:
            return None
        turned = tuple((col, self.columns[col][-1]) for col, c in fresh if c[1])
        return Played(DEAL.source, DEAL.target, 0, turned, (), tuple((col, c[0]) for col, c in fresh), points)

    def tell_row(self, row: Iterable[Card | str]) -> Played | None:
        """Tell a view the row its last deal brought (column 1 first); see ``tell``."""
        return self.tell(list(enumerate(row)))

    def give_up(self) -> bool:
        """End the round as lost (``lost`` True; no more moves, no undo).  False when it is over."""
        if self.won or self.lost:
            return False
        self.lost = True
        return True

    def _flip(self, col: int) -> bool:
        if self.columns[col] and self.down[col] == len(self.columns[col]):
            self.down[col] -= 1
            return True
        return False

    def _complete(self, col: int) -> tuple[int, bool] | None:
        """Remove a completed K→A run from the end of ``col``; (suit, flipped) or None."""
        cards = self.columns[col]
        if len(cards) - self.down[col] >= RUN and cards[-1] & 15 == 1 and self.run_length(col) == RUN:
            suit = cards[-1] >> 4
            del cards[-RUN:]
            if self._paid is not None:
                del self._paid[col][-RUN:]
            self.done.append(suit)
            return suit, self._flip(col)
        return None

    def _points(self, flips: int, joins: int, *completed: tuple[int, bool] | None) -> int:
        """Score of one action (0 without the Scoring rule)."""
        if self.score is None:
            return 0
        runs = 0
        for c in completed:
            if c:
                runs += 1
                flips += c[1]
        return action_points(self.suits, runs=runs, flips=flips, joins=joins)

    def _move(self, s: int, t: int, k: int) -> None:
        src, dst = self.columns[s], self.columns[t]
        paid = self._paid
        # Lands on its own suit, and pays only if this card never paid a join this round.
        joined = bool(dst) and dst[-1] == src[-k] + 1 and not (paid is not None and paid[s][-k])
        dst.extend(src[-k:])
        del src[-k:]
        if paid is not None:
            flags = paid[s][-k:]
            del paid[s][-k:]
            if joined:
                flags[0] = True
            paid[t].extend(flags)
        flipped = self._flip(s)
        # The card left exposed may end a complete run (possible under Scorpion).
        left_run = None if flipped or not src or src[-1] & 15 != 1 else self._complete(s)
        completed = self._complete(t)
        points = self._points(flipped, joined, completed, left_run)
        self._log.append(("m", s, t, k, flipped, completed, left_run, joined, points))

    def _deal(self) -> None:
        n = len(self.columns)
        row, self.stock = self.stock[:n], self.stock[n:]
        joins = 0
        paid = self._paid
        for i, (col, card) in enumerate(zip(self.columns, row)):
            # A card from the stock has never paid: a join here always pays.
            joined = bool(col) and col[-1] == card + 1
            joins += joined
            col.append(card)
            if paid is not None:
                paid[i].append(joined)
        completed = []
        for i in range(n):
            c = self._complete(i)
            if c:
                completed.append((i, c))
        points = self._points(0, joins, *(c for _, c in completed))
        self._log.append(("d", row, completed, points))

    def _joker(self, t: int) -> None:
        choice = self.joker_choice(t)
        assert choice is not None  # joker_refusal said it is legal
        card, where = choice
        flipped = False
        left_run = None
        paid = self._paid
        was_paid = False  # only an exposed card taken from the table may have paid before
        if where[0] == "stock":
            del self.stock[where[1]]
        elif where[0] == "down":
            _, c, i = where
            del self.columns[c][i]
            self.down[c] -= 1
            if paid is not None:
                del paid[c][i]
        else:
            c = where[1]
            self.columns[c].pop()
            if paid is not None:
                was_paid = paid[c].pop()
            flipped = self._flip(c)
            if not flipped and self.columns[c]:
                left_run = self._complete(c)
        dst = self.columns[t]
        joined = bool(dst) and dst[-1] == card + 1
        pays = joined and not was_paid
        dst.append(card)
        if paid is not None:
            paid[t].append(was_paid or joined)
        completed = self._complete(t)
        self.jokers_left -= 1
        points = self._points(flipped, pays, completed, left_run)
        self._log.append(("j", t, card, where, flipped, completed, left_run, was_paid, points))

    def undo(self) -> bool:
        """Revert the last action with all it caused; False when there is nothing to undo
        (or under Undo off, or once the round is given up).  It also steps back from a win (for
        programs that search, SPEC §1), taking the win bonus back."""
        if not self._log or not self.rules.undo_allowed or self.lost:
            return False
        entry = self._log.pop()
        kind = entry[0]
        paid = self._paid
        if kind == "m":
            _, s, t, k, flipped, completed, left_run, joined, points = entry
            if completed:
                self._uncomplete(t, completed)
            if left_run:
                self._uncomplete(s, left_run)
            src, dst = self.columns[s], self.columns[t]
            if flipped:
                self.down[s] += 1
            src.extend(dst[-k:])
            del dst[-k:]
            if paid is not None:
                flags = paid[t][-k:]
                del paid[t][-k:]
                if joined:
                    flags[0] = False  # undoing the action that paid makes it pay again
                paid[s].extend(flags)
        elif kind == "d":
            _, row, completed, points = entry
            for col, c in reversed(completed):
                self._uncomplete(col, c)
            for col in self.columns[: len(row)]:
                col.pop()
            if paid is not None:
                for flags in paid[: len(row)]:
                    flags.pop()
            self.stock = row + self.stock
        else:
            _, t, card, where, flipped, completed, left_run, was_paid, points = entry
            if completed:
                self._uncomplete(t, completed)
            self.columns[t].pop()
            if paid is not None:
                paid[t].pop()
            if where[0] == "stock":
                self.stock.insert(where[1], card)
            elif where[0] == "down":
                _, c, i = where
                self.columns[c].insert(i, card)
                self.down[c] += 1
                if paid is not None:
                    paid[c].insert(i, False)
            else:
                c = where[1]
                if left_run:
                    self._uncomplete(c, left_run)
                if flipped:
                    self.down[c] += 1
                self.columns[c].append(card)
                if paid is not None:
                    paid[c].append(was_paid)
            self.jokers_left += 1
        self.moves -= 1
        if self.score is not None:
            self.score += UNDO_POINTS - points
        return True

    def _uncomplete(self, col: int, completed: tuple[int, bool]) -> None:
        suit, flipped = completed
        if flipped:
            self.down[col] += 1
        self.done.pop()
        base = suit * 16
        self.columns[col].extend(base + r for r in range(KING, 0, -1))
        if self._paid is not None:
            # Every card of a run lying on its own suit has paid its join (the King never can).
            self._paid[col].extend([False] + [True] * (RUN - 1))

    # ------------------------------------------------------------------ helpers
    def face_up(self, col: int) -> list[Card]:
        """Face-up cards of column ``col`` (0-based)."""
        return self.columns[col][self.down[col]:]

    def __repr__(self) -> str:
        return (
            f"<Game deal={self.deal_number} suits={self.suits} rules={self.rules.name} "
            f"moves={self.moves} left={self.deals_left}>"
        )


def joined_flags(columns: list[list[Card]], down: list[int]) -> list[list[bool]]:
    """Per card of each column: whether it lies face up on the card of its own suit one rank
    higher (such a card has paid its join, SPEC §10)."""
    out = []
    for cards, d in zip(columns, down):
        lo = max(d, 0) + 1
        out.append([lo <= i and cards[i - 1] == cards[i] + 1 for i in range(len(cards))])
    return out


def dst_unknown(cards: list[Card]) -> bool:
    """Whether a column's exposed card is not known yet."""
    return bool(cards) and cards[-1] == UNKNOWN


__all__ = ["Game", "Move", "Played", "IllegalMove", "PositionError", "Refusal", "Why", "DEAL", "JOKER", "UNKNOWN",
           "rank_name"]
