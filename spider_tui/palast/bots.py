"""Bot players (``spider bots``, SPEC §13): N connections at standard tables, each playing by the
hint at R actions a second: they deal when the hint says deal and give up when it has nothing.
They see only what a player sees (the ``position`` views the server sends).

The summary counts accepted actions, refusals, errors (connections lost, timeouts), the rounds
finished at their tables, and the action→answer time (p50/p99 in ms).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field

from spider_tui.engine import Game

from .client import PalastClient, Refused


@dataclass
class Tally:
    players: int = 0
    actions: int = 0
    refused: int = 0
    errors: int = 0
    rounds: set = field(default_factory=set)
    times: list[float] = field(default_factory=list)

    def summary(self) -> dict:
        t = sorted(self.times)

        def pct(p: float) -> float | None:
            if not t:
                return None
            return round(t[min(len(t) - 1, int(p * len(t)))] * 1000, 2)

        return {"players": self.players, "actions": self.actions, "refused": self.refused, "errors": self.errors,
                "rounds_finished": len(self.rounds), "p50_ms": pct(0.50), "p99_ms": pct(0.99)}


def bot_move(view: Game) -> str:
    """The bot's action on its view: the hint, else give up."""
    m = view.hint()
    return str(m) if m is not None else "give up"


async def _sit(c: PalastClient, deadline: float) -> None:
    """Take a seat at a standard table (the server keeps one open)."""
    while time.monotonic() < deadline:
        for t in await c.tables():
            if t["standard"] and t["state"] == "waiting" and len(t["players"]) < t["seats"]:
                try:
                    await c.join(table=t["id"])
                    return
                except Refused as e:
                    if "already sit" in e.reason:
                        return
        await asyncio.sleep(0.2)


async def _bot(url: str, name: str, rate: float, deadline: float, tally: Tally) -> None:
    token = None
    loop = asyncio.get_running_loop()
    while time.monotonic() < deadline:
        try:
            c = await PalastClient.connect(url)
        except (OSError, asyncio.TimeoutError):
            tally.errors += 1
            await asyncio.sleep(1)
            continue
        try:
            await c.hello(name, token)
            token = c.token
            await _sit(c, deadline)
            view: Game | None = None
            next_at = loop.time()
            while time.monotonic() < deadline:
                wait = deadline - time.monotonic()
                if view is not None:
                    wait = min(wait, max(0.0, next_at - loop.time()))
                try:
                    ev = await c.next_event(timeout=wait)
                except asyncio.TimeoutError:
                    ev = {}
                if ev is None:
                    raise ConnectionError("closed")
                kind = ev.get("type")
                if kind == "round":
                    view = Game.from_text(ev["position"])
                    next_at = loop.time() + 1 / rate
                elif kind == "round_over":
                    tally.rounds.add((ev.get("table"), ev.get("round")))
                    view = None
                    try:
                        await c.ready()
                    except Refused:
                        pass  # the last round: table_over follows
                elif kind == "table_over":
                    view = None
                    await _sit(c, deadline)
                if view is not None and loop.time() >= next_at and time.monotonic() < deadline:
                    move = bot_move(view)
                    t0 = time.perf_counter()
                    answer = await c.play(move)
                    tally.times.append(time.perf_counter() - t0)
                    next_at = max(next_at + 1 / rate, loop.time())
                    if answer.get("type") == "played":
                        tally.actions += 1
                        view = Game.from_text(answer["position"])
                        if answer.get("state") != "playing":
                            view = None  # solved, gave up or stuck: wait for the round's end
                    else:
                        tally.refused += 1
                        view = None
            await c.close()
            return
        except (ConnectionError, OSError, asyncio.TimeoutError, Refused):
            tally.errors += 1
            await c.close()
            await asyncio.sleep(0.5)


async def run_bots(url: str, players: int, rate: float = 1.0, seconds: float = 60.0) -> dict:
    """Run ``players`` bots against ``url`` for ``seconds``; the summary dict."""
    tally = Tally(players=players)
    run = secrets.token_hex(2)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(_bot(url, f"bot-{run}-{i}", rate, deadline, tally) for i in range(players)))
    return tally.summary()
