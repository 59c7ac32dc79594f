"""The Palast's round records (SPEC §16): every player's record of every finished round, made
when the round ends, kept in the database beside its results, and handed out by ``records
{table, round}`` only once that round is over.

A record is the text ``spider_tui.records`` writes (``docs/records.md``): the round's deal code,
the table's rules with Scoring, the player's accepted actions with their times since the round
began (``give up`` is the result, not an action line), and the ``palast`` and ``table`` headers.
It replays on the engine to exactly its result: the server's games are made from the same
actions (``Seat.replay``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from spider_tui import records
from spider_tui.palast import messages as m
from spider_tui.palast.protocol import Refusal, play_rules
from spider_tui.palast.server.db import FINISHED, ROUND_OVER, ActionRow, ResultRow, Store, TableRow

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.table import LiveTable

__all__ = ["RESULT_OF", "round_records", "records_of_round", "answer"]

#: A Palast result's ``state`` (the standings') -> the record's ``result``.
RESULT_OF = {
    "solved": "won", "gave up": "gave up", "stopped": "gave up", "stuck": "stuck", "left": "left",
    "out": "out", "idle": "out", "offline": "out", "playing": "out", "out of time": "time",
}
#: The states whose play time ends with the player's last action (the game itself stopped).
_ENDED_BY_PLAY = ("solved", "gave up", "stopped", "stuck")
#: The name a record gives a Palast whose address isn't known (``Options.address``).
UNNAMED = "palast"


def round_records(*, palast: str, table: TableRow, n: int, deal: str, started: float, ended: float,
                  results: Sequence[ResultRow], actions: Sequence[ActionRow]) -> dict[int, str]:
    """Each player's record of round ``n`` (player id -> record text), from the round's results
    and its accepted actions as the database holds them."""
    by_player: dict[int, list[ActionRow]] = {}
    for a in actions:
        by_player.setdefault(a.player_id, []).append(a)
    date = records.utc_now(datetime.fromtimestamp(ended, timezone.utc))
    out: dict[int, str] = {}
    for r in results:
        mine = sorted(by_player.get(r.player_id, []), key=lambda a: a.seq)
        lines: list[records.Action] = []
        last = 0
        for a in mine:
            if a.move == "give up":
                continue
            last = max(last, round((a.at - started) * 1000))  # never back (clocks of two processes)
            lines.append((last, a.move))
        stop = mine[-1].at if mine and r.state in _ENDED_BY_PLAY else ended
        seconds = max(round(max(0.0, stop - started), 3), last / 1000)
        record = records.Record(
            deal=deal, suits=table.suits, rules=play_rules(table.rules), date=date, player=r.name[:records.MAX_FIELD],
            result=RESULT_OF.get(r.state, "out"), moves=r.moves, seconds=seconds, actions=tuple(lines),
            score=r.score, palast=(palast or UNNAMED)[:records.MAX_FIELD], table=str(table.id),
        )
        out[r.player_id] = records.write(record)
    return out


async def records_of_round(t: LiveTable, n: int, results: Sequence[ResultRow], now: float) -> dict[int, str]:
    """The records of round ``n`` of the live table ``t`` as it ends now (read before its results
    are written, so both go into the database in one transaction)."""
    row = t.row
    if not isinstance(row.deal, str):  # a round dealt from a number (a database from before codes)
        return {}
    actions = await t.lobby.store.actions(t.id, n)
    return round_records(palast=t.lobby.options.address or UNNAMED, table=row, n=n, deal=row.deal,
                         started=row.round_started or now, ended=now, results=results, actions=actions)


def round_is_over(row: TableRow, n: int) -> bool:
    """Whether round ``n`` of the table has ended (its ``round_over`` was sent)."""
    return row.state == FINISHED or row.round > n or (row.round == n and row.round_state == ROUND_OVER)


async def answer(store: Store, req: m.AskRecords, player_id: int,
                 told: Callable[[str, int], Awaitable[bool]]) -> m.Records:
    """The ``records`` answer: every player's record of that round, only once it is over
    (refused with ``round_not_over`` before; a private table's only to its players; a daily
    try's once ``told(day, suits)`` says its day's deal may be told)."""
    row = await store.table(req.table)
    if row is not None and row.daily:  # a daily try: anyone's, once its day's deal is told
        if not await told(row.daily, row.suits):
            raise Refusal("A daily table's records are handed out when its day is over.", code=m.Code.DAY_NOT_OVER)
    elif row is None or (row.private and all(s.player_id != player_id for s in await store.seats(row.id))):
        raise Refusal("There is no such table.", code=m.Code.NO_TABLE)
    if req.round > max(row.round, 0) or req.round > row.rounds:
        raise Refusal("That table has not played that round.", code=m.Code.NO_ROUND)
    if not round_is_over(row, req.round):
        raise Refusal("A round's records are handed out after its round_over, not while it is played.",
                      code=m.Code.ROUND_NOT_OVER)
    return m.Records(table=row.id, round=req.round, records=await store.records(row.id, req.round))
