"""Game: the state of one Spider round, its legal moves, play and undo (SPEC §1, §3).

The state is mutated in place and every action appends one entry to an action log, so
``undo`` is exact and cheap: no copies of the table are ever made.

>>> g = Game.new(1, suits=1)
>>> g.deals_left, g.moves
(5, 0)
>>> g.play("deal"); g.moves
1
>>> g.undo(), g.moves
(True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .cards import KING, Card, rank_name, with_article
from .deal import check_deal_number, check_suits, spider_deal
from .rules import CLASSIC, Rules, rules_named

RUN = 13  # cards in a completed run


class IllegalMove(ValueError):
    """A move the rules don't allow; ``reason`` is a sentence a player can read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class PositionError(ValueError):
    """Position notation that can't be read; the message names the line and the fault."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.fault = message


@dataclass(frozen=True, slots=True)
class Move:
    """A move of ``count`` cards from column ``source`` to column ``target`` (1-based), or a deal.

    ``count`` may be ``None`` in a move read from text like ``3>7``; ``Game`` fills it in.
    """

    source: int = 0
    target: int = 0
    count: int | None = 0

    @property
    def is_deal(self) -> bool:
        return self.source == 0

    def __str__(self) -> str:
        if self.is_deal:
            return "deal"
        if self.count is None:
            return f"{self.source}>{self.target}"
        return f"{self.source}>{self.target}:{self.count}"

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``3>7:2``, ``3>7`` or ``deal``; raises ``IllegalMove`` when it isn't one."""
        t = text.strip().lower()
        if t in ("deal", "d"):
            return DEAL
        try:
            head, _, count = t.partition(":")
            src, sep, dst = head.partition(">")
            if not sep:
                raise ValueError
            n = int(count) if count else None
            m = cls(int(src), int(dst), n)
        except ValueError:
            raise IllegalMove(f"Can't read {text.strip()!r}: write a move like 3>7, 3>7:2 or deal.") from None
        if n is not None and n < 1:
            raise IllegalMove("A move takes at least one card.")
        return m


DEAL = Move(0, 0, 0)


class Game:
    """One round of Spider.

    Public state (read it, don't assign it): ``columns`` (lists of cards, bottom first),
    ``down`` (face-down count per column), ``stock`` (cards in dealing order), ``done``
    (suits of completed runs), ``moves``, ``suits``, ``rules``, ``deal_number``.
    """

    __slots__ = ("columns", "down", "stock", "done", "moves", "suits", "rules", "deal_number", "_log", "runs_to_win")

    def __init__(
        self,
        columns: list[list[Card]],
        down: list[int],
        stock: list[Card],
        done: list[int] | None = None,
        *,
        suits: int = 1,
        rules: Rules = CLASSIC,
        deal_number: int | None = None,
        moves: int = 0,
        runs_to_win: int = 8,
    ):
        self.columns = columns
        self.down = down
        self.stock = stock
        self.done = list(done or [])
        self.suits = suits
        self.rules = rules
        self.deal_number = deal_number
        self.moves = moves
        self.runs_to_win = runs_to_win
        self._log: list[tuple] = []

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, number: int, suits: int = 1, rules: str | Rules = "classic") -> "Game":
        """Deal ``number`` (1…2147483647) at ``suits`` (1, 2 or 4), as KDE Patience does."""
        check_deal_number(number)
        check_suits(suits)
        if isinstance(rules, str):
            rules = rules_named(rules)
        columns, down, stock = spider_deal(number, suits)
        return cls(columns, down, stock, suits=suits, rules=rules, deal_number=number)

    @classmethod
    def from_text(cls, text: str) -> "Game":
        """Read position notation (SPEC §3); raises ``PositionError``."""
        from .notation import parse_position

        return parse_position(text)

    def to_text(self) -> str:
        """Canonical position notation; ``Game.from_text(g.to_text())`` round-trips."""
        from .notation import format_position

        return format_position(self)

    def copy(self) -> "Game":
        """An independent copy of the position (without undo history)."""
        g = Game(
            [list(c) for c in self.columns], list(self.down), list(self.stock), list(self.done),
            suits=self.suits, rules=self.rules, deal_number=self.deal_number, moves=self.moves,
            runs_to_win=self.runs_to_win,
        )
        return g

    # ------------------------------------------------------------------ queries
    @property
    def deal_size(self) -> int:
        return len(self.columns)

    @property
    def deals_left(self) -> int:
        return len(self.stock) // self.deal_size

    @property
    def won(self) -> bool:
        return not self.stock and not any(self.columns)

    @property
    def can_undo(self) -> bool:
        return bool(self._log) and not self.won and self.rules.undo_allowed

    def card_count(self) -> int:
        """Cards on the table + stock + 13 × completed runs."""
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
        while i > lo:
            p = cards[i - 1]
            if p != c + 1:  # same suit and one rank higher <=> exactly +1 in this encoding
                break
            c = p
            i -= 1
        return n - i

    def movable(self, col: int) -> int:
        """How many cards of column ``col`` (0-based) can move together: its longest movable group."""
        return self.run_length(col)

    def group_fitting(self, src: int, dst: int) -> int | None:
        """Size of the group from ``src`` that can go onto ``dst`` (0-based), or ``None``.

        Onto an empty column this is the longest movable group.
        """
        run = self.run_length(src)
        if run == 0 or src == dst:
            return None
        target = self.columns[dst]
        if not target:
            return run
        k = (target[-1] & 15) - (self.columns[src][-1] & 15)
        return k if 1 <= k <= run else None

    def deal_refusal(self) -> str | None:
        """Why a deal is not allowed now, or ``None`` when it is."""
        if self.won:
            return "The round is won."
        if not self.stock:
            return "The stock is empty."
        if not self.rules.relaxed and not all(self.columns):
            return "Fill every empty column before dealing."
        return None

    def move_refusal(self, move: Move) -> str | None:
        """Why ``move`` (with a count) is not legal now, or ``None`` when it is."""
        if move.is_deal:
            return self.deal_refusal()
        n = len(self.columns)
        s, t, k = move.source, move.target, move.count
        if not (1 <= s <= n and 1 <= t <= n):
            return f"Columns are numbered 1 to {n}."
        if s == t:
            return "A group can't move onto its own column."
        src = self.columns[s - 1]
        if not src:
            return f"Column {s} is empty."
        face_up = len(src) - self.down[s - 1]
        if k is None or k < 1:
            return "A move takes at least one card."
        if k > face_up:
            return f"Column {s} has only {face_up} face-up card{'s' if face_up != 1 else ''}."
        if k > self.run_length(s - 1):
            return "Only a same-suit run moves together."
        lead = src[-k]
        dst = self.columns[t - 1]
        if dst and (dst[-1] & 15) != (lead & 15) + 1:
            if (lead & 15) == KING:
                return "A King goes only into an empty column."
            what = with_article(lead & 15)
            return f"{what[0].upper()}{what[1:]} goes on {with_article((lead & 15) + 1)}."
        return None

    def resolve(self, move: Move | str) -> Move:
        """A legal, complete ``Move`` for ``move`` (text or Move); raises ``IllegalMove``.

        ``3>7`` with no count means the group that fits column 7, or the longest movable
        group when column 7 is empty.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if not move.is_deal and move.count is None:
            n = len(self.columns)
            s, t = move.source, move.target
            if 1 <= s <= n and 1 <= t <= n and s != t and self.columns[s - 1]:
                k = self.group_fitting(s - 1, t - 1)
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
        """Every legal action: each group move (every size into an empty column) and the deal."""
        out: list[Move] = []
        cols = self.columns
        n = len(cols)
        runs = [self.run_length(i) for i in range(n)]
        for s in range(n):
            run = runs[s]
            if not run:
                continue
            exposed = cols[s][-1] & 15
            for t in range(n):
                if t == s:
                    continue
                dst = cols[t]
                if dst:
                    k = (dst[-1] & 15) - exposed
                    if 1 <= k <= run:
                        out.append(Move(s + 1, t + 1, k))
                else:
                    for k in range(run, 0, -1):
                        out.append(Move(s + 1, t + 1, k))
        if self.deal_refusal() is None:
            out.append(DEAL)
        return out

    def _has_progress_move(self) -> bool:
        cols = self.columns
        n = len(cols)
        for s in range(n):
            run = self.run_length(s)
            if not run:
                continue
            exposed = cols[s][-1] & 15
            whole = run == len(cols[s])
            for t in range(n):
                if t == s:
                    continue
                dst = cols[t]
                if dst:
                    k = (dst[-1] & 15) - exposed
                    if 1 <= k <= run:
                        return True
                elif not whole or run > 1:
                    # Any group except the whole column is a real move into an empty column.
                    return True
        return False

    @property
    def stuck(self) -> bool:
        """No legal move and no legal deal (a whole column into an empty one doesn't count)."""
        if self.won:
            return False
        return self.deal_refusal() is not None and not self._has_progress_move()

    def hint(self) -> Move | None:
        """The fixed-order hint of SPEC §4."""
        from .hint import best_hint

        return best_hint(self)

    # ------------------------------------------------------------------ actions
    def play(self, move: Move | str) -> Move:
        """Make ``move``; returns the complete Move played. Raises ``IllegalMove``, state unchanged."""
        if self.won:
            raise IllegalMove("The round is won.")
        m = self.resolve(move)
        if m.is_deal:
            self._deal()
        else:
            self._move(m.source - 1, m.target - 1, m.count)
        self.moves += 1
        return m

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
            self.done.append(suit)
            return suit, self._flip(col)
        return None

    def _move(self, s: int, t: int, k: int) -> None:
        src, dst = self.columns[s], self.columns[t]
        dst.extend(src[-k:])
        del src[-k:]
        flipped = self._flip(s)
        completed = self._complete(t)
        self._log.append(("m", s, t, k, flipped, completed))

    def _deal(self) -> None:
        n = len(self.columns)
        row, self.stock = self.stock[:n], self.stock[n:]
        for col, card in zip(self.columns, row):
            col.append(card)
        completed = []
        for i in range(n):
            c = self._complete(i)
            if c:
                completed.append((i, c))
        self._log.append(("d", row, completed))

    def undo(self) -> bool:
        """Revert the last action with all it caused; False when there is nothing to undo."""
        if not self.can_undo:
            return False
        entry = self._log.pop()
        if entry[0] == "m":
            _, s, t, k, flipped, completed = entry
            if completed:
                self._uncomplete(t, completed)
            src, dst = self.columns[s], self.columns[t]
            if flipped:
                self.down[s] += 1
            src.extend(dst[-k:])
            del dst[-k:]
        else:
            _, row, completed = entry
            for col, c in reversed(completed):
                self._uncomplete(col, c)
            for col in self.columns:
                col.pop()
            self.stock = row + self.stock
        self.moves -= 1
        return True

    def _uncomplete(self, col: int, completed: tuple[int, bool]) -> None:
        suit, flipped = completed
        if flipped:
            self.down[col] += 1
        self.done.pop()
        base = suit * 16
        self.columns[col].extend(base + r for r in range(KING, 0, -1))

    # ------------------------------------------------------------------ helpers
    def face_up(self, col: int) -> list[Card]:
        """Face-up cards of column ``col`` (0-based)."""
        return self.columns[col][self.down[col]:]

    def history(self) -> Iterator[tuple]:
        return iter(self._log)

    def __repr__(self) -> str:
        return f"<Game deal={self.deal_number} suits={self.suits} moves={self.moves} left={self.deals_left}>"


__all__ = ["Game", "Move", "IllegalMove", "PositionError", "DEAL", "rank_name"]
