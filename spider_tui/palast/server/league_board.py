"""The league as the Palast answers it (SPEC §13 "League"): every ranked player read from the
store, best first, kept for ``LEAGUE_SECONDS`` (its rows change only at a table's end), and the
``league`` answer made from it (the top ``LEAGUE_TOP`` plus the asker's own row).
"""

from __future__ import annotations

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
    once after ``changed``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rows: tuple[float, list[dict]] | None = None  # (read at, every ranked row)

    def changed(self) -> None:
        """A table's round ended: the league is read again when next asked."""
        self._rows = None

    async def rows(self) -> list[dict]:
        """Every ranked player, best first, each with its ``place``."""
        now = time.monotonic()
        if self._rows is not None and now - self._rows[0] < LEAGUE_SECONDS:
            return self._rows[1]
        players = await self.store.league()
        out: list[dict[str, Any]] = [{"name": p.name, "rating": league.ordinal(p.rating_mu, p.rating_sigma),
                                      "tables": p.tables, "wins": p.wins, "experience": p.experience} for p in players]
        out.sort(key=lambda p: (-p["rating"], -p["experience"], p["name"].casefold()))
        for i, p in enumerate(out, 1):
            p["place"] = i
        self._rows = (now, out)
        return out

    async def answer(self, name: str | None = None) -> m.League:
        """The ``league`` answer: the best ``LEAGUE_TOP`` players, how many are ranked, and the
        asker's own row (``me``, None when not ranked yet)."""
        rows = await self.rows()
        key = name.casefold() if name else None
        me = next((p for p in rows if p["name"].casefold() == key), None) if key else None
        return m.League(players=[m.LeagueRow.from_json(p) for p in rows[:LEAGUE_TOP]], total=len(rows),
                        me=m.LeagueRow.from_json(me) if me else None)
