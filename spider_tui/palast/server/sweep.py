"""The Palast's sweep (SPEC §13): every few seconds each server process marks its players who
are offline for ``out_seconds`` while playing as ``out``, and those connected but without an
action for ``idle_seconds`` as ``idle``; ends rounds nobody plays any more; and lets the house
bots look for a person waiting alone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from spider_tui.palast.server.db import ROUND_PLAYING

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.lobby import Palast

__all__ = ["sweep", "sweep_forever"]

log = logging.getLogger("spider.palast")


async def sweep_forever(p: Palast) -> None:
    """Sweep every ``step`` seconds (a fraction of the shortest wait it watches) until cancelled."""
    o = p.options
    step = max(0.02, min(1.0, o.out_seconds / 6, o.idle_seconds / 6, (o.house_bots_after or 4) / 4))
    while True:
        await asyncio.sleep(step)
        try:
            p.sweep()
        except Exception:  # pragma: no cover - a bug here must not stop the sweeps
            log.exception("sweep failed")


def sweep(p: Palast) -> None:
    """Mark players offline for ``out_seconds`` while playing as out, and end rounds whose
    players are all done.  Runs every few seconds (with several processes, each one)."""
    now = p.clock()
    for t in list(p.tables.values()):
        if t.row.round_state != ROUND_PLAYING or t.ending:
            continue
        for s in t.seats:
            if s.game is None or s.state != "playing":
                continue
            if p.is_online(s.player_id):
                p.offline_since.pop(s.player_id, None)
                t.out.discard(s.player_id)
                last = s.acted_at if s.acted_at is not None else t.row.round_started
                if (not s.bot and last is not None and now - last >= p.options.idle_seconds
                        and s.player_id not in t.idle):
                    t.idle.add(s.player_id)  # connected, but no action for idle_seconds: out
                    t.mark(s)
                continue
            since = p.offline_since.setdefault(s.player_id, now)
            if now - since >= p.options.out_seconds and s.player_id not in t.out:
                t.out.add(s.player_id)
                t.mark(s)
        t.check_done()
    if p.house:
        p.house.check()
