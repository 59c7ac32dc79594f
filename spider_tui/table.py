"""One round at the table: a Game plus what the player sees and does (SPEC §5–§7).

``Table`` holds the deal number, suit count, daily date, hints used and play time, and the
selection/cursor/tap semantics of SPEC §6 as plain logic, so every "what happens when I
click here?" question has one answer, tested without a terminal.  Widgets only call
``tap``, ``double_tap``, ``key_column``, ``deal``, ``undo``, ``hint`` … and re-render.

Columns are 0-based here, as in the engine's ``Move`` (the UI and move text show 1–10).  A *group* is ``(column, count)``: the last
``count`` cards of the column.
"""

from __future__ import annotations

import time
from datetime import date
from typing import TYPE_CHECKING, Callable, NamedTuple

from spider_tui.commands import keys_text
from spider_tui.engine import DEAL, Deal, Game, IllegalMove, Move, Played
from spider_tui.engine.cards import RANK_CHARS, UNKNOWN, rank_of, suit_of
from spider_tui.engine.frozen import Frozen
from spider_tui.engine_words import said
from spider_tui.i18n import N_, _, ngettext
from spider_tui.points import Earned, earned, undone
from spider_tui.store.report import format_seconds

if TYPE_CHECKING:
    from spider_tui.winnable import Answer

SUIT_WORDS = ("♠", "♥", "♦", "♣")

STUCK_TEXT = N_("No moves left. Undo to go back.")  # each shown through _()
FILL_TO_DEAL_TEXT = N_("No hint. Fill the empty columns to deal again.")
NO_HINT_TEXT = N_("No hint: no move helps. Undo, or move sideways.")


def plural(n: int, word: str) -> str:
    """``1 move``, ``2 moves`` (English; :func:`count_text` says it in the language spoken)."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def count_text(n: int, word: str) -> str:
    """``1 move``, ``2 cards``, ``3 hints`` in the language spoken (``word``: move, card or hint)."""
    if word == "move":
        return ngettext("{n} move", "{n} moves", n).format(n=n)
    if word == "card":
        return ngettext("{n} card", "{n} cards", n).format(n=n)
    if word == "hint":
        return ngettext("{n} hint", "{n} hints", n).format(n=n)
    raise ValueError(word)


class Selection(Frozen):
    """A held group: ``count`` cards at the end of ``column``.

    ``chosen`` is False for the default pick of a column key (its longest movable group): then
    a target column takes the part of the group that fits it, like ``3>7`` in move text.
    """

    __slots__ = ("column", "count", "chosen")
    column: int
    count: int
    chosen: bool

    def __init__(self, column: int, count: int, chosen: bool = True) -> None:
        put = object.__setattr__
        put(self, "column", column)
        put(self, "count", count)
        put(self, "chosen", chosen)


class Can(NamedTuple):
    """``Table.can``'s answer: may the screen offer an action now?  Yes; or no, with the reason a
    player reads when the key is pressed anyway ("" for a key that is simply not offered);
    ``dimmed``: a no the footer still shows, greyed (the action comes back in this round)."""

    yes: bool
    reason: str = ""
    dimmed: bool = False

    def __bool__(self) -> bool:
        return self.yes


YES = Can(True)
NO = Can(False)
#: Table actions ``Table.can`` answers for (every other action is the screen's own: yes).
TABLE_ACTIONS = ("undo", "deal", "hint", "give_up", "still_winnable", "joker")


def describe(move: Move) -> str:
    """A move in words, as the hint says it."""
    if move.is_deal:
        return _("deal a row.")
    return ngettext("move {count} card from column {source} to column {target}.",
                    "move {count} cards from column {source} to column {target}.", move.count or 1).format(
        count=move.count, source=move.source + 1, target=move.target + 1)


class ColumnState:
    """What the table says about one column, enough to draw it (and to cache its picture).
    (A plain class: as a dataclass of eleven fields it took ~1.5 ms to make at every start.)"""

    __slots__ = ("cards", "down", "movable", "held", "target", "hint_from", "hint_to", "cursor", "cursor_here",
                 "badge", "landed")

    def __init__(self, cards: tuple[int, ...], down: int, movable: int,
                 held: int = 0,  # cards of the held group in this column (from the end)
                 target: bool = False,
                 hint_from: int = 0,  # cards of the hinted group leaving this column
                 hint_to: bool = False,
                 cursor: int | None = None,  # card index under the keyboard cursor (-1: empty slot)
                 cursor_here: bool = False,
                 badge: tuple[int | None, str] | None = None,  # points earned at a card: (its index, "+3")
                 landed: int = 0,  # cards the last move put here (from the end): marked until the next action
                 ) -> None:
        self.cards = cards
        self.down = down
        self.movable = movable
        self.held = held
        self.target = target
        self.hint_from = hint_from
        self.hint_to = hint_to
        self.cursor = cursor
        self.cursor_here = cursor_here
        self.badge = badge
        self.landed = landed

    def _fields(self) -> tuple:
        return (self.cards, self.down, self.movable, self.held, self.target, self.hint_from, self.hint_to,
                self.cursor, self.cursor_here, self.badge, self.landed)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # it may change (as a dataclass's without frozen)

    def __repr__(self) -> str:
        return f"ColumnState({', '.join(f'{n}={v!r}' for n, v in zip(self.__slots__, self._fields()))})"


class Table:
    """A round in play.  ``clock`` returns seconds (monotonic); injected by tests."""

    def __init__(
        self,
        game: Game,
        *,
        deal_number: Deal | None = None,
        daily: date | None = None,
        practice: bool = False,
        hints_used: int = 0,
        seconds: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        start: str | None = None,
        log: list[tuple[int, str]] | None = None,
    ):
        self.game = game
        #: Every action so far with its play time (ms, move text; ``undo`` too): the round's record.
        self.log: list[tuple[int, str]] = list(log or [])
        #: The position the round started from when it is not a numbered deal (for Retry).
        self.start = start
        self.deal_number = deal_number if deal_number is not None else game.deal_number
        self.daily = daily
        self.practice = practice
        self.hints_used = hints_used
        self.clock = clock
        self._seconds = seconds
        self._running_since: float | None = None
        self.selection: Selection | None = None
        self.hint_move: Move | None = None
        self.status = ""
        self.cursor_column = 0
        self.cursor_index: int | None = None  # card index in the column; None = exposed card
        self._stuck_told = False
        self.joker_pending = False  # the next column picked receives a joker card
        self.version = 0  # bumps on every change the screen should show
        #: A scored round: where the last action's points were earned (``points.py``); gone
        #: with the next action.
        self.earned: tuple[Earned, ...] = ()
        #: Where the last move's group landed (column, cards), marked until the next action
        #: (SPEC §6, seed 004: "die Karten wandern dorthin").
        self.landed: tuple[int, int] | None = None
        #: What the last move or deal did (turned up, dealt, completed: ``engine.Played``); None
        #: after an undo.  The line front end (``describe.py``) says it.
        self.played: Played | None = None
        #: The solver's answer (``winnable.Answer``): shown while the position is one it speaks of.
        self.answer: Answer | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, number: Deal, suits: int = 1, rules: str = "classic", **kw) -> "Table":
        return cls(Game.new(number, suits=suits, rules=rules), deal_number=number, **kw)

    @property
    def suits(self) -> int:
        return self.game.suits

    # ------------------------------------------------------------------ time
    def resume(self) -> None:
        """The round is on screen: time counts."""
        if self._running_since is None and not self.over:
            self._running_since = self.clock()

    def pause(self) -> None:
        """Something covers the round (help, stats, a dialog) or it ended: time stops."""
        if self._running_since is not None:
            self._seconds += self.clock() - self._running_since
            self._running_since = None

    @property
    def seconds(self) -> float:
        extra = self.clock() - self._running_since if self._running_since is not None else 0.0
        return self._seconds + extra

    # ------------------------------------------------------------------ state
    @property
    def won(self) -> bool:
        return self.game.won

    @property
    def over(self) -> bool:
        """Won, or lost (given up, or out of time)."""
        return self.game.over

    @property
    def lost(self) -> bool:
        return self.game.lost

    @property
    def time_left(self) -> float | None:
        """Seconds left on a timed round's countdown, or None when the round is not timed."""
        limit = self.game.rules.countdown
        return None if limit is None else max(0.0, limit - self.seconds)

    def check_time(self) -> bool:
        """End a timed round whose countdown reached zero; True when that just happened."""
        left = self.time_left
        if left is not None and left <= 0 and not self.over:
            self.game.give_up()
            self.pause()
            self.selection = None
            self.status = _("Time is up. The round is lost.")
            self._changed()
            return True
        return False

    def give_up(self) -> bool:
        """End the round as lost (SPEC §10 Give up)."""
        if not self.game.give_up():
            return False
        self.pause()
        self.selection = None
        self.hint_move = None
        self.joker_pending = False
        self.status = _("Given up. The round is lost.")
        self._changed()
        return True

    # ------------------------------------------------------------------ what may be offered
    def has(self, action: str) -> bool:
        """Whether this kind of round has ``action`` at all: Undo off has no undo, Simple Simon no
        deal, a round without the Joker rule no joker."""
        rules = self.game.rules
        if action == "undo":
            return rules.undo_allowed
        if action == "deal":
            return rules.has_stock
        if action == "joker":
            return rules.joker
        return True

    def can(self, action: str) -> Can:
        """What the screen may offer now of ``action`` (one of ``TABLE_ACTIONS``; anything else
        is yes): once the round is over none of them; Undo off says why on ``u``; a joker with
        none left is shown dimmed."""
        if action not in TABLE_ACTIONS:
            return YES
        if not self.has(action):
            if action == "undo":
                return Can(False, _("Undo is off in this round."))
            return NO
        if self.over:
            return NO
        if action == "joker" and self.game.jokers_left < 1:
            return Can(False, _("No jokers left."), dimmed=True)
        return YES

    def joker(self) -> None:
        """Start a joker: the next column picked receives a matching card (SPEC §10)."""
        g = self.game
        if self.over:
            return
        if not g.rules.joker:
            self.status = _("This round is played without jokers.")
        elif g.jokers_left < 1:
            self.status = self.can("joker").reason
        else:
            self.joker_pending = not self.joker_pending
            self.selection = None
            self.hint_move = None
            self.status = (_("Joker ({left} left): pick the column that gets a card. {key} cancels.").format(
                left=g.jokers_left, key=_(keys_text("escape"))) if self.joker_pending else "")
        self._changed()

    def _play_joker(self, col: int) -> None:
        self.joker_pending = False
        g = self.game
        choice = g.joker_choice(col)
        try:
            played = g.play_joker(col)
        except IllegalMove as e:
            self.status = said(e.reason)
            self._changed()
            return
        self._logged(played)
        self._after_action()
        if choice is not None:
            card = choice[0]
            self.status = _("Joker: {card} onto column {n}.").format(
                card=RANK_CHARS[rank_of(card) - 1].replace("T", "10") + SUIT_WORDS[suit_of(card)], n=col + 1)
            self._changed()

    @property
    def moves(self) -> int:
        return self.game.moves

    @property
    def in_progress(self) -> bool:
        """A round with at least one move that has not ended: leaving it counts as played."""
        return self.game.moves > 0 and not self.over

    def movable(self, col: int) -> int:
        return self.game.movable(col) if 0 <= col < len(self.game.columns) else 0

    def group_at(self, col: int, index: int | None) -> int:
        """Size of the group that card ``index`` of ``col`` leads, or 0 when it leads none."""
        cards = self.game.columns[col]
        if index is None or not cards:
            return 0
        count = len(cards) - index
        return count if 1 <= count <= self.movable(col) else 0

    def target_count(self, target: int) -> int | None:
        """Cards of the held group that would go to ``target``, or None if it can't go there."""
        sel = self.selection
        if sel is None or target == sel.column:
            return None
        if sel.chosen:
            return sel.count if self.game.is_legal(Move(sel.column, target, sel.count)) else None
        k = self.game.group_fitting(sel.column, target)
        if k is None or k > sel.count:
            return None
        return k if self.game.is_legal(Move(sel.column, target, k)) else None

    def column_states(self) -> list[ColumnState]:
        """What the view draws of every column: cards, the held group, targets, the hint, the
        cursor (the legal targets are worked out once for all columns)."""
        g, sel, hint = self.game, self.selection, self.hint_move
        targets = set(self.targets())
        badges = {e.column: (e.index, e.text) for e in reversed(self.earned) if e.column is not None}
        hinted = hint is not None and not hint.is_deal
        hint = hint if hinted else None
        states = []
        for col, cards in enumerate(g.columns):
            here = self.cursor_column == col
            down = g.down[col]
            if g.lost and UNKNOWN not in cards[:down]:
                down = 0  # a lost round (given up, out of time) shows what was face down
            states.append(ColumnState(
                cards=tuple(cards),
                down=down,
                movable=g.movable(col),
                held=sel.count if sel is not None and sel.column == col else 0,
                target=col in targets,
                hint_from=(hint.count or 0) if hint is not None and hint.source == col else 0,
                hint_to=hint is not None and hint.target == col,
                cursor=(self.cursor_card() if cards else -1) if here else None,
                cursor_here=here,
                badge=badges.get(col),
                landed=min(self.landed[1], len(cards) - down) if self.landed is not None and self.landed[0] == col else 0,
            ))
        return states

    def targets(self) -> list[int]:
        """Every column the held group (or its fitting part) can go to now."""
        if self.selection is None:
            return []
        return [t for t in range(len(self.game.columns)) if self.target_count(t) is not None]

    @property
    def status_line(self) -> str:
        """The status line: the last action's note, else the solver's answer when it speaks of
        this position (it goes when the position changes, and comes back on an undo to it)."""
        if self.status or self.answer is None:
            return self.status
        return self.answer.text(self.game) or ""

    def take_answer(self, answer: Answer) -> None:
        """The solver answered (``winnable.Answer``): the status line says it at once when it
        speaks of the position on the table, in place of whatever note was showing (a hint's
        "No hint: …" or "Asking the solver…" no longer hides it until the next action)."""
        self.answer = answer
        if answer.text(self.game) is not None:
            self.status = ""
        self._changed()

    def show_solution_move(self) -> bool:
        """Outline the solver's next move (as a hint: Enter plays it); False when the answer
        doesn't speak of this position or has no move."""
        move = None if self.answer is None or self.over else self.answer.next_move(self.game)
        if move is None:
            return False
        self.selection = None
        self.hint_move = self.game.resolve(move)
        self.status = _("The solver's next move: {move} Enter plays it.").format(move=describe(self.hint_move))
        self._changed()
        return True

    # ------------------------------------------------------------------ changes
    def _changed(self) -> None:
        self.version += 1

    def _logged(self, move: object) -> None:
        """An action happened: keep it, with the play time, for the round's record (SPEC §16)."""
        ms = int(self.seconds * 1000)
        if self.log and ms < self.log[-1][0]:
            ms = self.log[-1][0]
        self.log.append((ms, str(move)))

    def say(self, text: str) -> None:
        """The one way to put a line on the status bar from outside (``""`` clears it): the
        screen shows it with the next sync."""
        self.status = text
        self._changed()

    def make_practice(self) -> bool:
        """The round becomes practice (not recorded; e.g. the solver was asked). False if it was."""
        if self.practice:
            return False
        self.practice = True
        self._changed()
        return True

    def take_game(self, game: Game) -> None:
        """Another position replaces the table's (a Palast server's answer): nothing stays held,
        no hint stays outlined."""
        self.game = game
        self.selection = None
        self.hint_move = None
        self.landed = None
        self._changed()

    def _select(self, col: int, count: int, chosen: bool = True) -> None:
        self.selection = Selection(col, count, chosen) if count > 0 else None
        self.hint_move = None
        self.status = self.partial_text()
        self._changed()

    def partial_text(self) -> str:
        """Where only part of the held group goes, say how many cards will move there (a
        marked column takes the whole group unless this says otherwise)."""
        sel = self.selection
        if sel is None:
            return ""
        parts = []
        for t in range(len(self.game.columns)):
            k = self.target_count(t)
            if k is not None and k < sel.count:
                parts.append(_("column {n} takes only the last {cards}").format(n=t + 1, cards=count_text(k, "card")))
        if not parts:
            return ""
        return _("Holding {cards}: {parts}.").format(cards=count_text(sel.count, "card"), parts="; ".join(parts))

    def clear(self) -> None:
        """Esc: drop the held group, the hint outline and a joker not yet placed."""
        if self.selection is not None or self.hint_move is not None or self.joker_pending:
            if self.status and self.status == self.partial_text():
                self.status = ""  # it spoke of the group no longer held
            self.selection = None
            self.hint_move = None
            if self.joker_pending:
                self.joker_pending = False
                self.status = ""
            self._changed()

    def _after_action(self) -> None:
        self.earned = ()
        self.landed = None
        self.selection = None
        self.hint_move = None
        self.joker_pending = False
        self.status = ""
        g = self.game
        if g.won:
            self.pause()
            self.status = self.won_text()
        elif g.stuck:
            if not self._stuck_told:
                self.status = _(STUCK_TEXT)
                self._stuck_told = True
        else:
            self._stuck_told = False
        self._changed()

    def won_text(self) -> str:
        """The status line after a win: moves, time and hints, and how to go on."""
        return _("Won: {moves}, {time}, {hints}. n new, r retry").format(
            moves=count_text(self.moves, "move"), time=format_seconds(self.seconds), hints=count_text(self.hints_used, "hint"))

    def play(self, move: Move | str) -> bool:
        """Play a move; False (with a quiet status line) when the rules refuse it."""
        if self.over:
            return False
        runs_before = len(self.game.done)
        try:
            played = self.game.play(move)
        except IllegalMove as e:
            self.status = said(e.reason)
            self._changed()
            return False
        self._logged(played)
        self._after_action()
        self.played = played
        self.earned = earned(played, self.game, runs_before)
        if played.source >= 0 and played.count and not any(col == played.target for col, _suit in played.completed):
            self.landed = (played.target, played.count)  # a move's (not a deal's or a joker's)
        return True

    def _move_selection_to(self, target: int) -> bool:
        k = self.target_count(target)
        if k is None or self.selection is None:
            return False
        return self.play(Move(self.selection.column, target, k))

    def _select_movable(self, col: int, index: int | None = None) -> None:
        """Hold what is movable at ``col``: the group ``index`` leads, else its longest group."""
        k = self.group_at(col, index)
        if k:
            self._select(col, k, True)
        elif self.movable(col):
            self._select(col, self.movable(col), False)
        else:
            self.selection = None
            self.hint_move = None
            self._changed()

    # ------------------------------------------------------------------ player input
    def tap(self, col: int, index: int | None = None) -> None:
        """A click on column ``col``; ``index`` is the card clicked (None: empty space/slot)."""
        if self.over or not 0 <= col < len(self.game.columns):
            return
        self.cursor_column, self.cursor_index = col, index
        if self.joker_pending:
            self._play_joker(col)
            return
        sel = self.selection
        if sel is None:
            self._select_movable(col, index)
            return
        if col == sel.column:
            k = self.group_at(col, index)
            if k and k != sel.count:
                self._select(col, k, True)  # a different card of the same run
            else:
                self.clear()  # tapping the held group puts it back
            return
        if not self._move_selection_to(col):
            self._select_movable(col, index)

    def lift(self, col: int, index: int | None) -> None:
        """A drag under way from card ``index`` of column ``col``: hold the group a click there
        would pick up (its targets are marked), whatever was held before."""
        self.selection = None
        self.tap(col, index)

    def drag(self, col: int, index: int | None, target: int) -> None:
        """A drag from card ``index`` of column ``col``, released over column ``target``: the same
        move as two clicks; a group held before is dropped first."""
        self.selection = None
        self.tap(col, index)
        if self.selection is not None and self.selection.column == col:
            self.tap(target, None)

    def best_target(self, col: int, count: int) -> int | None:
        """Best column for the group (col, count): same-suit card, else any card, else empty."""
        g = self.game
        lead = g.columns[col][-count]
        same: int | None = None
        other: int | None = None
        empty: int | None = None
        whole = count == len(g.columns[col])
        for t in range(len(g.columns)):
            if t == col or not g.is_legal(Move(col, t, count)):
                continue
            dst = g.columns[t]
            if dst and suit_of(dst[-1]) == suit_of(lead):
                same = t if same is None else same
            elif dst:
                other = t if other is None else other
            elif not whole and empty is None:
                empty = t  # a whole column into an empty one changes nothing
        for choice in (same, other, empty):
            if choice is not None:
                return choice
        return None

    def double_tap(self, col: int, index: int | None = None) -> None:
        """Double click (or Enter on a selection): the best move for the group there."""
        if self.over or not 0 <= col < len(self.game.columns):
            return
        k = self.group_at(col, index) or self.movable(col)
        if not k:
            return
        t = self.best_target(col, k)
        if t is None:
            self._select(col, k, True)
            self.status = _("That group has nowhere to go.")
            return
        self.play(Move(col, t, k))

    def key_column(self, col: int) -> None:
        """Keys 1–9, 0: hold a column's longest group, shorten it, or move the held group."""
        if self.over or not 0 <= col < len(self.game.columns):
            return
        self.cursor_column, self.cursor_index = col, None
        if self.joker_pending:
            self._play_joker(col)
            return
        sel = self.selection
        if sel is not None and sel.column == col:
            count = sel.count - 1 if sel.count > 1 else self.movable(col)
            self._select(col, count, count != self.movable(col))
            return
        if sel is not None and self._move_selection_to(col):
            return
        self._select_movable(col, None)

    def best_move(self) -> None:
        """The best move (Enter, as the help says): with nothing held, the hint's move (the one on
        show, else the one the hint would show now; a deal when that is the hint); with a group
        held, put it at the cursor or make its best move."""
        sel = self.selection
        if sel is None and self.over:
            return
        if sel is None:
            move = self.hint_move if self.hint_move is not None else self.hint()
            if move is not None:
                self.play(move)
        elif self.cursor_column != sel.column:
            self.pick_or_put()
        else:
            col, count = sel.column, sel.count
            t = self.best_target(col, count) if sel.chosen else None
            if t is None and not sel.chosen:
                # default pick: the best move for the part that fits somewhere
                for k in range(count, 0, -1):
                    t = self.best_target(col, k)
                    if t is not None:
                        count = k
                        break
            if t is None:
                self.status = _("That group has nowhere to go.")
                self._changed()
                return
            self.play(Move(col, t, count))

    def pick_or_put(self) -> None:
        """Pick up or put down at the cursor (Space): pick up the group at the cursor, or put the held group at the cursor column."""
        sel = self.selection
        if sel is None:
            self._select_movable(self.cursor_column, self.cursor_index)
        elif self.cursor_column == sel.column:
            self.clear()
        elif not self._move_selection_to(self.cursor_column):
            self._select_movable(self.cursor_column, self.cursor_index)

    def move_cursor(self, dcol: int = 0, drow: int = 0) -> None:
        """Arrows / hjkl: left-right over columns, up-down over the face-up cards of a column."""
        n = len(self.game.columns)
        if dcol:
            self.cursor_column = (self.cursor_column + dcol) % n
            self.cursor_index = None
        if drow:
            cards = self.game.columns[self.cursor_column]
            if cards:
                first_up = self.game.down[self.cursor_column]
                idx = len(cards) - 1 if self.cursor_index is None else self.cursor_index
                idx = max(first_up, min(len(cards) - 1, idx + drow))
                self.cursor_index = None if idx == len(cards) - 1 else idx
        self._changed()

    def cursor_card(self) -> int | None:
        """Index of the card under the cursor (the exposed card when the index is None)."""
        cards = self.game.columns[self.cursor_column]
        if not cards:
            return None
        return len(cards) - 1 if self.cursor_index is None else self.cursor_index

    def deal(self) -> bool:
        """Deal a row; a refusal gives the quiet reason (SPEC §5)."""
        if self.over:
            return False
        reason = self.game.deal_refusal()
        if reason:
            self.status = said(reason)
            self.selection = None
            self._changed()
            return False
        return self.play(DEAL)

    def undo(self) -> bool:
        if self.over:
            return False  # the round is over: no undo for the player (SPEC §1); the status stays
        score_before = self.game.score
        if not self.game.undo():
            if not self.has("undo"):
                self.status = self.can("undo").reason
            else:
                self.status = _("Nothing to undo.") if not self.over else ""
            self._changed()
            return False
        self._logged("undo")
        self.selection = None
        self.hint_move = None
        self.played = None
        self.status = ""
        self.earned = undone(score_before, self.game.score)
        self.landed = None
        self._stuck_told = False
        if self.game.stuck:
            self._stuck_told = True
            self.status = _(STUCK_TEXT)
        self._changed()
        return True

    def hint(self) -> Move | None:
        """Show the hint: outline the group and the card that receives it (SPEC §4)."""
        if self.over:
            return None
        h = self.game.hint()
        self.selection = None
        if h is None:
            self.hint_move = None
            if self.game.stuck:
                self.status = _(STUCK_TEXT)
            elif self.game.stock and sum(1 for c in self.game.columns if not c) >= 2 and self.game.deal_refusal():
                self.status = _(FILL_TO_DEAL_TEXT)  # SPEC §4: no sideways move is proposed, but say what helps
            else:
                self.status = _(NO_HINT_TEXT)
        else:
            if h != self.hint_move:
                self.hints_used += 1
            self.hint_move = h
            self.status = _("Hint: {move}").format(move=describe(h))
        self._changed()
        return h
