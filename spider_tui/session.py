"""The life of a round (SPEC §5–§8, §10): begin, new, retry, continue, give up, end.

Plain Python, below ``ui/``: the game screen keeps the dialogs and the save timer and asks a
:class:`Session` everything else.  A session owns the round on the table, knows whether it
is recorded, words the confirm questions, says which round commands it offers, and maps a
:class:`Table` to the save file's round and result records.

The face is :class:`Session`; :class:`SoloSession` plays rounds against the save file.  A
round played against a Palast server (SPEC §13) is a second implementation of the same face.
"""

from __future__ import annotations

import os
import random
import time
from abc import ABC, abstractmethod
from enum import StrEnum
from datetime import date
from typing import TYPE_CHECKING, Any, Callable

from spider_tui.engine import MAX_DEAL, MIN_DEAL, Deal, Game, rules_named
from spider_tui.i18n import _
from spider_tui.store import RoundResult, RoundState, daily_number, record_result
from spider_tui.store.book import playable_rules
from spider_tui.store.rounds import RoundMark, drop_round, end_round_once, get_round, keep_round, latest_round
from spider_tui.table import NO, YES, Can, Table, count_text, plural

if TYPE_CHECKING:
    from spider_tui.records import Record

Data = dict[str, Any]
Write = Callable[..., None]  # write(change, after=None): apply to memory now, to disk soon

DAILY_RULES = "classic"  # the daily deal is the same challenge for everyone


def deal_rules(wanted: str, daily: date | None) -> str:
    """The rules a deal is played under: daily rounds are classic.

    >>> deal_rules("practice", date(2026, 1, 1)), deal_rules("practice", None)
    ('classic', 'practice')
    """
    return DAILY_RULES if daily is not None else playable_rules(wanted)


def is_recorded(table: Table) -> bool:
    """Is this round recorded in the statistics when it ends?  (Practice rounds and
    practice rules are not; a round without a move is not either: see :meth:`Session.counts`.)"""
    return not (table.practice or table.game.rules.practice)


def title_for(table: Table) -> str:
    """The round's name on screen: ``Practice``, ``Daily 2026-01-02`` or ``Deal 42``."""
    if table.practice:
        return _("Practice")
    if table.daily is not None:
        return _("Daily {date}").format(date=table.daily.isoformat())
    return _("Deal {number}").format(number=table.deal_number)


def round_state(table: Table) -> RoundState:
    """The save file's record of an unfinished round (without undo history)."""
    # spider_tui.records is imported where it is used: the first frame doesn't need it (SPEC §11)
    from spider_tui.records import actions_text

    return RoundState(position=table.game.to_text(), suits=table.suits, rules=table.game.rules.name,
                      moves=table.moves, seconds=round(table.seconds, 3), hints=table.hints_used,
                      deal=table.deal_number, daily=table.daily, practice=table.practice, start=table.start,
                      actions=actions_text(table.log) if table.start is None else None)


def saved_log(state: RoundState) -> list[tuple[int, str]]:
    """The saved round's actions (empty when it has none, or they don't read)."""
    from spider_tui.records import parse_actions

    try:
        return list(parse_actions(state.actions or ""))
    except ValueError:
        return []


def table_from_state(state: RoundState) -> Table:
    """A saved unfinished round back on a table (raises ValueError if its position is unreadable)."""
    game = Game.from_text(state.position)
    return Table(game, deal_number=state.deal, daily=state.daily, practice=state.practice,
                 hints_used=state.hints, seconds=state.seconds, start=state.start, log=saved_log(state))


def same_deal(record: Record, table: Table) -> bool:
    """Is ``table`` a fresh round of the record's deal, suits and rules (a Retry of it)?"""
    return (table.moves == 0 and table.start is None and record.deal == table.deal_number
            and record.suits == table.suits and record.rules == table.game.rules.name)


PLAYER = "you"  #: the ``player`` header of a solo round's record


def result_of(game: Game, seconds: float, won: bool) -> str:
    """The record's ``result`` of a round that ends now (SPEC §16): ``won``; ``time`` when a
    countdown ran out, ``gave up`` when given up; left by New/Retry/Quit: ``stuck`` when no move
    was left, else ``left``."""
    if won and game.won:
        return "won"
    if game.lost:
        limit = game.rules.countdown
        return "time" if limit is not None and seconds + 0.001 >= limit else "gave up"
    return "stuck" if game.stuck else "left"


def round_record(table: Table, won: bool, player: str = PLAYER, date: str | None = None) -> Record | None:
    """The record of a round that ends now, or None for a round with no deal to replay from
    (a ``--position`` round) or no action."""
    from spider_tui.records import Record, utc_now

    if table.start is not None or table.deal_number is None or not table.log:
        return None
    g = table.game
    seconds = max(table.seconds, table.log[-1][0] / 1000)
    return Record(deal=table.deal_number, suits=table.suits, rules=g.rules.name, date=date or utc_now(),
                  player=player, result=result_of(g, seconds, won), moves=g.moves, seconds=seconds,
                  actions=tuple(table.log), score=g.score)


def saved_record(state: RoundState, player: str = PLAYER) -> Record | None:
    """The record of a saved unfinished round abandoned from the start screen (its saved log
    replayed to learn whether it was stuck), or None when it has none that replays."""
    from spider_tui.records import Record, replay, utc_now

    log = saved_log(state)
    if state.start is not None or state.deal is None or not log:
        return None
    draft = Record(deal=state.deal, suits=state.suits, rules=state.rules, date=utc_now(), player=player,
                   result="left", moves=state.moves, seconds=state.seconds, actions=tuple(log))
    try:
        game = replay(draft)
    except ValueError:
        return None
    if game.moves != state.moves:
        return None
    seconds = max(state.seconds, log[-1][0] / 1000)
    return Record(deal=state.deal, suits=state.suits, rules=game.rules.name, date=draft.date, player=player,
                  result="stuck" if game.stuck else "left", moves=game.moves, seconds=seconds,
                  actions=tuple(log), score=game.score)


def round_result(table: Table, won: bool) -> RoundResult:
    """The save file's result record of a round that ended."""
    return RoundResult(suits=table.suits, won=won, moves=table.moves, seconds=table.seconds,
                       rules=table.game.rules.name, daily=table.daily, practice=not is_recorded(table))


def saved_result(state: RoundState) -> RoundResult:
    """The result of a saved unfinished round that is abandoned: lost."""
    return RoundResult(suits=state.suits, won=False, moves=state.moves, seconds=state.seconds,
                       rules=state.rules, daily=state.daily,
                       practice=state.practice or rules_practice(state.rules))


def rules_practice(name: str) -> bool:
    try:
        return rules_named(name).practice
    except (KeyError, ValueError):
        return "practice" in name


def end_question(kind: str, table: Table) -> str:
    """The confirm question of Retry (``kind="retry"``) or New with a round in progress.

    >>> end_question("retry", Table.new(1))
    'Retry this deal from the start? The round in progress ends and counts as played.'
    """
    ask = _("Retry this deal from the start?") if kind == "retry" else _("Start a new deal?")
    tail = _("The round in progress ends and counts as played.") if is_recorded(table) else _("This practice round ends.")
    return f"{ask} {tail}"


def give_up_question(table: Table) -> str:
    """The confirm question of Give up (SPEC §10).

    >>> give_up_question(Table.new(1))
    'Give up this round? It ends.'
    """
    counts = table.moves > 0 and is_recorded(table)
    return _("Give up this round? It ends and counts as lost.") if counts else _("Give up this round? It ends.")


def start_over_question(state: RoundState) -> str:
    """Start screen New/Daily with an unfinished round saved: the question asked first."""
    if state.daily is not None:
        what = _("Daily {date}").format(date=state.daily.isoformat())
    else:
        what = _("Deal {number}").format(number=state.deal) if state.deal is not None else _("a practice round")
    ask = _("You have an unfinished round ({what}, {moves}). Start a new one?").format(
        what=what, moves=count_text(state.moves, "move"))
    return ask if saved_result(state).practice else f"{ask} " + _("It ends and counts as played.")


class Offer(StrEnum):
    """A round command a kind of round may offer beyond play, undo and give up (its value is the
    screen's action name)."""

    NEW = "new"  #: a new deal (a lesson's: the next lesson), after the round too, and the Won panel's
    RETRY = "retry"  #: the same deal again
    STILL_WINNABLE = "still_winnable"  #: the solver question


ROUND_OFFERS = frozenset(Offer)  # what a solo round offers
OFFER_ACTIONS = frozenset(o.value for o in Offer)


class Session(ABC):
    """One kind of round's life.  The game screen shows :attr:`table`; after every action it calls
    :meth:`changed` and acts on the answer; it asks the questions this session words, and offers
    only the commands in :attr:`offers`."""

    table: Table | None = None
    #: The record of the round that ended last (SPEC §16: share, review), if it has one.
    last_record: Record | None = None
    last_try: Record | None = None
    offers: frozenset[Offer] = ROUND_OFFERS
    """The round commands this kind of round has beyond play, undo and give up (``Offer``)."""
    next_round: bool = False  #: New brings the next of a series (a lesson's New is "Next")

    def can(self, action: str) -> Can:
        """What the screen may offer of ``action`` now: a round command only where this kind of
        round offers it, the table's actions as the table says (``Table.can``)."""
        if action in OFFER_ACTIONS and action not in self.offers:
            return NO
        return YES if self.table is None else self.table.can(action)

    @property
    def title(self) -> str:
        return "" if self.table is None else title_for(self.table)

    @property
    @abstractmethod
    def recorded(self) -> bool:
        """Has the round on the table ended and been recorded (or dropped) already?"""

    def counts(self) -> bool:
        """Is the round on the table recorded when it ends now?  (SPEC §8: a round with a move,
        not a practice round.)"""
        t = self.table
        return t is not None and t.moves > 0 and is_recorded(t)

    @abstractmethod
    def end(self, won: bool) -> None:
        """The round ends (won, lost, or left by New/Retry/Give up): record it once."""

    @abstractmethod
    def keep(self) -> None:
        """Keep the unfinished round (for Continue, or across a dropped link)."""

    def changed(self) -> str:
        """After an action: ``"won"`` or ``"lost"`` the moment the round ends (recorded now),
        ``"keep"`` when the unfinished round should be kept soon, else ``""``."""
        t = self.table
        if t is None:
            return ""
        if t.over and not self.recorded:
            won = t.won
            self.end(won=won)
            return "won" if won else "lost"
        if t.moves > 0 and not t.over:
            return "keep"
        return ""

    def needs_asking(self) -> bool:
        """Do Retry/New ask first?  (Only with a round in progress, SPEC §6.)"""
        return self.table is not None and self.table.in_progress

    def leave(self) -> None:
        """Retry/New without asking: a finished round with moves is recorded first."""
        t = self.table
        if t is not None and t.moves > 0 and not self.recorded:
            self.end(won=t.won)

    def end_question(self, kind: str) -> str:
        assert self.table is not None
        return end_question(kind, self.table)

    def give_up_question(self) -> str:
        assert self.table is not None
        return give_up_question(self.table)

    def give_up(self) -> bool:
        """Give up (after the confirm): the round ends as lost.  False if it had ended."""
        t = self.table
        if t is None or not t.give_up():
            return False
        self.end(won=False)
        return True


class SoloSession(Session):
    """Rounds played on this machine and kept in the save file.

    ``data`` returns the save data as this instance knows it; ``write(change, after=None)``
    applies ``change`` to it now and to the file soon (``SaveBook.write``).
    """

    def __init__(self, data: Callable[[], Data], write: Write, *, rng: random.Random | None = None,
                 keep_record: Callable[[Record], None] | None = None) -> None:
        self.data = data
        self.write = write
        #: Where a finished round's record goes (``store/records.py``, off the UI thread); None: nowhere.
        self.keep_record = keep_record
        self.rng = rng or random.Random()
        self.table: Table | None = None
        self.mark: RoundMark | None = None  # the round's identity in the save file
        self._recorded = False

    @property
    def recorded(self) -> bool:
        return self._recorded

    # ------------------------------------------------------------------ beginning a round
    def begin(self, table: Table, token: str | None = None) -> Table:
        """``table`` becomes the round; a continued round is on disk under ``token`` already."""
        self.table = table
        before, self.last_record = self.last_record, None
        #: After a Retry: the last try of this deal, offered as a ghost (SPEC §16).
        self.last_try = before if before is not None and same_deal(before, table) else None
        self.mark = RoundMark(token or os.urandom(6).hex(), on_disk=token is not None)
        self._recorded = False
        return table

    def deal(self, number: Deal, suits: int, rules: str = "classic", daily: date | None = None) -> Table:
        return self.begin(Table.new(number, suits=suits, rules=deal_rules(rules, daily), daily=daily))

    def new_round(self, suits: int | None = None, rules: str = "classic") -> Table:
        return self.deal(self.rng.randint(MIN_DEAL, MAX_DEAL), suits or 1, rules)

    def daily(self, d: date, suits: int) -> Table:
        return self.deal(daily_number(d), suits, daily=d)

    def practice(self, position: str) -> Table:
        """A round from a position (``--position``): practice, not recorded."""
        return self.begin(Table(Game.from_text(position), practice=True, start=position))

    def retry(self, rules: str = "classic") -> Table | None:
        t = self.table
        if t is None:
            return None
        if t.start is not None:
            return self.begin(Table(Game.from_text(t.start), practice=t.practice, start=t.start))
        if t.deal_number is not None:
            return self.deal(t.deal_number, t.suits, rules, daily=t.daily)
        return self.new_round(t.suits, rules)

    def saved(self) -> tuple[str, RoundState] | None:
        """(token, round) of the unfinished round Continue offers: the most recently saved one."""
        return latest_round(self.data())

    def resume(self) -> Table | str | None:
        """Continue: the saved round back on the table (the same table, undo history and all,
        if it is the one this instance left).  A message if it could not be read (it is
        dropped); None if there is none."""
        found = self.saved()
        if found is None:
            return None
        token, state = found
        t, mark = self.table, self.mark
        if t is not None and mark is not None and token == mark.token and not self._recorded and not t.over:
            return self.begin(t, token=token)
        try:
            table = table_from_state(state)
        except ValueError as e:
            self.write(lambda d: drop_round(d, token))
            return _("The saved round could not be read ({error}); it was dropped.").format(error=e)
        return self.begin(table, token=token)

    def start_over_question(self) -> str | None:
        """The question before New/Daily from the start screen, or None with no round saved."""
        found = self.saved()
        return None if found is None else start_over_question(found[1])

    def abandon_saved(self) -> None:
        """New/Daily confirmed over a saved round: it ends and counts as played (once)."""
        found = self.saved()
        if found is None:
            return
        token, old = found
        record = saved_record(old) if self.keep_record is not None and not old.practice else None

        def change(d: Data) -> None:
            ended_here[0] = False
            if get_round(d, token) is not None:  # not ended meanwhile by another instance
                record_result(d, saved_result(old))
                drop_round(d, token)
                ended_here[0] = True

        def keep() -> None:
            if record is not None and ended_here[0] and self.keep_record is not None:
                self.keep_record(record)

        ended_here = [False]
        self.write(change, after=keep)

    # ------------------------------------------------------------------ ending, keeping
    def end(self, won: bool) -> None:
        t, mark = self.table, self.mark
        if t is None or mark is None or self._recorded:
            return
        self._recorded = True
        t.pause()
        counts = t.moves > 0
        result = round_result(t, won)
        kept = round_record(t, won) if self.keep_record is not None else None
        self.last_record = kept

        ended_here = [False]

        def record(d: Data) -> None:
            ended_here[0] = True
            if counts:
                record_result(d, result)

        def keep() -> None:  # on the writer thread, once the end is on disk: once, where it ended
            if kept is not None and ended_here[0] and self.keep_record is not None:
                self.keep_record(kept)

        def change(d: Data) -> None:  # the last application before ``keep`` is the one on disk
            ended_here[0] = False
            end_round_once(d, mark, record)

        self.write(change, after=keep)

    def keep(self) -> None:
        t, mark = self.table, self.mark
        if t is None or mark is None or self._recorded or t.moves == 0 or t.over:
            return
        state, now = round_state(t), time.time()
        self.write(lambda d: keep_round(d, mark, state, now), after=lambda: setattr(mark, "on_disk", True))
