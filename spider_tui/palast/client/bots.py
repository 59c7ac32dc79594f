"""Bot players (``spider bots``, SPEC §13): N connections at standard tables, each playing as the
fair bot (SPEC §14, ``spider_tui.engine.fairbot.plan``): it sees only what a player sees (the
``position`` views the server sends), never undoes, plans a line up to the first card it turns
up (or a deal), plays it, and plans again; it gives up when the plan is empty (stuck).

- ``level`` (1 to 5) is the plan's size (``fairbot.LEVELS``: positions a plan looks at); level 0
  plays the hint instead (cheap: for load tests with hundreds of bots).
- ``pace``: ``"fast"`` plays R actions a second; ``"human"`` waits as a person would
  (``human_delay``: a few seconds before the first move of a plan, about a second between the
  moves of a planned line), whatever R is.

The summary counts accepted actions, refusals, errors (connections lost, timeouts), the rounds
finished at their tables, and the action→answer time (p50/p99 in ms).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from spider_tui.engine import Game, fairbot

from spider_tui.palast import messages as m
from spider_tui.palast.client.client import PalastClient, Refused


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


PACES = ("fast", "human")
DEFAULT_LEVEL = 3
MAX_LEVEL = len(fairbot.LEVELS)


def bot_move(view: Game) -> str:
    """The level-0 bot's action on its view: the hint, else give up."""
    move = view.hint()
    return str(move) if move is not None else "give up"


def bot_line(view: Game, level: int = DEFAULT_LEVEL) -> list[str]:
    """The bot's next actions on its view: the fair bot's plan at ``level`` (the hint at level
    0), or ``["give up"]`` when it has nothing."""
    if level <= 0:
        return [bot_move(view)]
    line = [str(move) for move in fairbot.plan(view, level=level)]
    return line or ["give up"]


def human_delay(rng: random.Random, first: bool) -> float:
    """Seconds a person takes before an action: looking at a new table for the first move of a
    plan (2–6 s), about a second for each further move of a line they already see (0.6–1.8 s)."""
    return rng.uniform(2.0, 6.0) if first else rng.uniform(0.6, 1.8)


async def _sit(c: PalastClient, deadline: float) -> None:
    """Take a seat at a standard table (the server keeps one open)."""
    while time.monotonic() < deadline:
        answer = (await c.ask(m.ListTables())).message
        for t in answer.tables if isinstance(answer, m.Tables) else []:
            if t.standard and t.state == "waiting" and len(t.players) < t.seats:
                try:
                    await c.join(table=t.id)
                    return
                except Refused as e:
                    if "already sit" in e.reason:
                        return
        await asyncio.sleep(0.2)


async def _bot(url: str, name: str, rate: float, deadline: float, tally: Tally,
               level: int = DEFAULT_LEVEL, pace: str = "fast") -> None:
    token = None
    loop = asyncio.get_running_loop()
    rng = random.Random(name)
    line: list[str] = []  # the rest of the current plan

    def wait_before(first: bool) -> float:
        return human_delay(rng, first) if pace == "human" else 1 / rate

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
            line = []
            next_at = loop.time()
            while time.monotonic() < deadline:
                wait = deadline - time.monotonic()
                if view is not None:
                    wait = min(wait, max(0.0, next_at - loop.time()))
                try:
                    got = await c.next_event(timeout=wait)
                except asyncio.TimeoutError:
                    ev: m.Message | None = None
                else:
                    if got is None:
                        raise ConnectionError("closed")
                    ev = got.message
                if isinstance(ev, m.Round):
                    view = Game.from_text(ev.position)
                    line = []
                    next_at = loop.time() + wait_before(True)
                elif isinstance(ev, m.RoundOver):
                    tally.rounds.add((ev.table, ev.round))
                    view = None
                    try:
                        await c.ready()
                    except Refused:
                        pass  # the last round: table_over follows
                elif isinstance(ev, m.TableOver):
                    view = None
                    await _sit(c, deadline)
                if view is not None and loop.time() >= next_at and time.monotonic() < deadline:
                    if not line:
                        # Planning takes CPU: in a thread, so the connection keeps answering.
                        line = await asyncio.to_thread(bot_line, view, level)
                    move = line.pop(0)
                    t0 = time.perf_counter()
                    answer = (await c.play(move)).message
                    tally.times.append(time.perf_counter() - t0)
                    next_at = max(next_at + wait_before(not line), loop.time())
                    if isinstance(answer, m.Played):
                        tally.actions += 1
                        view = Game.from_text(answer.position)
                        if answer.state != "playing":
                            view = None  # solved, gave up or stuck: wait for the round's end
                    else:
                        tally.refused += 1
                        view = None
                        line = []
            await c.close()
            return
        except (ConnectionError, OSError, asyncio.TimeoutError, Refused):
            tally.errors += 1
            await c.close()
            await asyncio.sleep(0.5)


async def run_bots(url: str, players: int, rate: float = 1.0, seconds: float = 60.0,
                   level: int = DEFAULT_LEVEL, pace: str = "fast",
                   progress: Callable[[int], None] | None = None) -> dict:
    """Run ``players`` bots against ``url`` for ``seconds`` at ``level`` and ``pace``; the summary
    dict.  ``progress(actions)`` is called once a second with the actions accepted so far."""
    tally = Tally(players=players)
    run = secrets.token_hex(2)
    deadline = time.monotonic() + seconds

    async def report() -> None:
        assert progress is not None
        while time.monotonic() < deadline:
            progress(tally.actions)
            await asyncio.sleep(1.0)

    reporter = asyncio.create_task(report()) if progress is not None else None
    await asyncio.gather(*(_bot(url, f"bot-{run}-{i}", rate, deadline, tally, level, pace) for i in range(players)))
    if reporter is not None:
        reporter.cancel()
    return tally.summary()
