"""The Palast's daily board (SPEC §16): one daily table per suit count (1, 2, 4), the same deal
code for everyone that UTC day.

- The day's deal is drawn (a fresh deal code, never a number) by the first process and player to
  ask and kept in the database (``Store.daily_deal``), so every process deals the same one; its
  commitment (``palast.commitment``) is shown all day, in ``daily`` and in the try's ``round``.
- One try a player (``Store.daily_try``): ``daily_play {suits}`` opens a one-seat, one-round
  private table (``tables.daily`` = the day) and deals the day's deal at once; a second try is
  refused with ``daily_done``.  A one-seat table never counts for the league, so the daily board
  never enters the ratings (a shared deal can be talked about); its points count as experience.
- Ranked by points, then time (``Store.daily_board``); equal both share a place.
- The code is told when the day is over and none of its tries is still in play: not in a try's
  ``round_over`` (``deal`` is null there), nor in its records before then (``day_not_over``).
  After the day, every record of it can be read (``records {table, round}``) and so watched.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.engine.deal import deal_code
from spider_tui.palast import messages as m
from spider_tui.palast.commitment import commitment
from spider_tui.palast.protocol import Refusal
from spider_tui.palast.server.db import DailyRow, TableRow

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.lobby import Palast

__all__ = ["DailyTables", "DAILY_TOP", "day_of", "day_ends", "told_deal"]

#: Entries in one board of a ``daily`` answer, plus the asker's own.
DAILY_TOP = 50
#: The rules of a daily try (Scoring, as at every Palast table, is added by the server).
DAILY_RULES = "classic"


def day_of(now: float) -> str:
    """The UTC day of a unix time: ``2026-12-02``."""
    return datetime.fromtimestamp(now, timezone.utc).date().isoformat()


def day_ends(day: str) -> float:
    """When the UTC day is over (unix seconds): the next midnight."""
    start = datetime.fromisoformat(day).replace(tzinfo=timezone.utc)
    return (start + timedelta(days=1)).timestamp()


def told_deal(row: TableRow) -> int | str | None:
    """The deal a ``round_over`` of the table tells: none for a daily try (the board tells it
    when the day is over), else the round's."""
    return None if row.daily else row.deal


def ranked(rows: list[DailyRow]) -> list[m.DailyEntry]:
    """The board's entries, best first (the store's order), equal points and time sharing a place."""
    out: list[m.DailyEntry] = []
    for i, r in enumerate(rows):
        same = out and out[-1].score == r.score and out[-1].seconds == r.seconds
        out.append(m.DailyEntry(player=r.name, score=r.score, moves=r.moves, seconds=r.seconds, state=r.state,
                                place=out[-1].place if same else i + 1, bot=r.bot))
    return out


class DailyTables:
    """The daily board of one Palast process (its state is the database's)."""

    def __init__(self, lobby: Palast) -> None:
        self.lobby = lobby

    async def deal(self, day: str, suits: int) -> str:
        """The day's deal at ``suits`` suits (drawn now when nobody asked before)."""
        return await self.lobby.store.daily_deal(day, suits, deal_code(self.lobby.options.draw()))

    async def told(self, day: str, suits: int) -> bool:
        """Whether the day's deal may be told: the day is over and none of its tries plays on."""
        if day_ends(day) > self.lobby.clock():
            return False
        _rows, playing = await self.lobby.store.daily_board(day, suits)
        return playing == 0

    async def answer(self, req: m.AskDaily, name: str | None) -> m.Daily:
        """The ``daily`` answer: each board of the day (today's when no ``day``)."""
        store, today = self.lobby.store, day_of(self.lobby.clock())
        day = req.day or today
        if day > today:
            raise Refusal("That day has not begun.", req.id, code=m.Code.NO_TABLE)
        boards = []
        for suits in (req.suits,) if req.suits else SUIT_COUNTS:
            deal = await self.deal(day, suits) if day == today else await store.daily_told(day, suits)
            rows, playing = await store.daily_board(day, suits)
            entries = ranked(rows)
            key = name.casefold() if name else None
            me = next((e for e in entries if e.player.casefold() == key), None) if key else None
            shown = deal if deal and playing == 0 and day_ends(day) <= self.lobby.clock() else None
            boards.append(m.DailyBoard(suits=suits, commitment=commitment(deal) if deal else None, deal=shown,
                                       entries=entries[:DAILY_TOP], total=len(entries), playing=playing, me=me))
        return m.Daily(day=day, ends_at=day_ends(day), boards=boards)

    async def play(self, player_id: int, name: str, req: m.PlayDaily) -> m.Joined:
        """Today's one try of ``player`` at ``req.suits`` suits: a one-seat table dealt the day's
        deal (its ``round`` follows the answer); raises ``Refusal``."""
        lobby = self.lobby
        store = lobby.store
        where = await store.table_of(player_id)
        if where is not None:
            raise Refusal(f"You already sit at table {where}; leave it or finish it first.", code=m.Code.ALREADY_SEATED)
        day = day_of(lobby.clock())
        deal = await self.deal(day, req.suits)
        row = await store.create_table(host=name, suits=req.suits, rules=DAILY_RULES, rounds=1, seats=1, private=True,
                                       code=None, standard=False, now=lobby.clock(), daily=day)
        if not await store.daily_try(day, req.suits, player_id, row.id):
            await store.close_table(row.id)
            raise Refusal("You had today's try at that daily table; come back tomorrow.", code=m.Code.DAILY_DONE)
        reason = await store.seat(row.id, player_id, lobby.clock())
        if reason:  # pragma: no cover - seated elsewhere a moment ago (another process)
            raise Refusal(reason)
        t = lobby.track(row)
        await t.load_seats()
        lobby.spawn(t.start_round(1, deal))  # after this answer: `joined`, then `round`
        return m.Joined(table=t.info(), code=None)
