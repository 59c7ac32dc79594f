"""The league as the Palast answers it (SPEC §13 "League"): every ranked player read from the
store, best first, kept for ``LEAGUE_SECONDS`` (its rows change only at a table's end), and the
``league`` answer made from it (the top ``LEAGUE_TOP`` plus the asker's own row).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from spider_tui.palast import messages as m
from spider_tui.palast.server import league
from spider_tui.palast.server.db import Store

__all__ = ["LeagueBoard", "LEAGUE_TOP", "LEAGUE_SECONDS"]

LEAGUE_TOP = 50  # players in a `league` answer, plus the asker's own row
LEAGUE_SECONDS = 5.0  # a league read from the database serves this long (its rows change at table ends)


class LeagueBoard:
    """The league of one Palast process, read again at most every ``LEAGUE_SECONDS`` (and at
    once after ``changed``).  What every answer shares (the top rows, encoded once) and a row
    per name are made at each read, so an answer costs a lookup, not a league: many ask for it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._read: float | None = None  # when the rows below were read
        self._rows: list[dict[str, Any]] = []  # every ranked row, best first
        self._top: m.Rows = m.Rows([])
        self._by_name: dict[str, m.LeagueRow] = {}
        self._reading: asyncio.Future[list[dict]] | None = None  # the read under way
        self._changes = 0  # tables ended so far: a read that began before one is not kept as fresh

    def changed(self) -> None:
        """A table's round ended: the league is read again when next asked."""
        self._read = None
        self._changes += 1

    async def rows(self) -> list[dict]:
        """Every ranked player, best first, each with its ``place``.  One read at a time: those
        who ask while it runs wait for it (a read per asker would queue them all in the store,
        and every player's moves behind them)."""
        if self._read is not None and time.monotonic() - self._read < LEAGUE_SECONDS:
            return self._rows
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._refresh())
            self._reading.add_done_callback(self._read_done)
        return await asyncio.shield(self._reading)

    def _read_done(self, task: "asyncio.Future[list[dict]]") -> None:
        self._reading = None
        if not task.cancelled():
            task.exception()  # retrieved here; those who wait see it raised

    async def _refresh(self) -> list[dict]:
        now, changes = time.monotonic(), self._changes
        players = await self.store.league()
        out: list[dict[str, Any]] = [{"name": p.name, "rating": league.ordinal(p.rating_mu, p.rating_sigma),
                                      "tables": p.tables, "wins": p.wins, "experience": p.experience} for p in players]
        out.sort(key=lambda p: (-p["rating"], -p["experience"], p["name"].casefold()))
        for i, p in enumerate(out, 1):
            p["place"] = i
        parts = [m.LeagueRow.from_json(p) for p in out]
        self._rows, self._read = out, (now if changes == self._changes else None)
        self._top = m.Rows(parts[:LEAGUE_TOP])
        self._by_name = {p.name.casefold(): p for p in parts}
        return out

    async def answer(self, name: str | None = None) -> m.League:
        """The ``league`` answer: the best ``LEAGUE_TOP`` players, how many are ranked, and the
        asker's own row (``me``, None when not ranked yet)."""
        rows = await self.rows()
        me = self._by_name.get(name.casefold()) if name else None
        return m.League(players=self._top, total=len(rows), me=me)
