"""House bots (SPEC §13 "House bots and the embedded Palast"): nobody waits alone.

When a person has sat alone at a standard table for ``Options.house_bots_after`` seconds, the
server seats house bots until the table is full (it then starts by itself).  A house bot is a
player of this server marked ``bot`` in the database: it shows as a bot wherever names show
(``bot: true`` in the protocol), never gets a league rating, and a table whose only person plays
with bots counts as Training for the league (``LiveTable.finish``).

A bot plays in this process as any player does, through ``Palast.play``, and sees only what a
player sees: the ``position`` views the server sends it (every face-down and stock card ``??``).
Its moves are the fair bot's (``spider_tui.engine.fairbot.plan(view)``, SPEC §14; its search
runs on a worker thread so the event loop keeps answering), one action every
``house_bot_pace`` seconds on average (a human pace); it never undoes, and gives up when the fair
bot has nothing to play, or once no person at its table is still playing the round (they
solved, gave up, are stuck, left or are out: nobody waits for bots).  A bot seated at a table
when the server restarts plays on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from spider_tui.engine import Game, PositionError
from spider_tui.engine import fairbot

from spider_tui.palast import messages as m
from spider_tui.palast.server.db import WAITING, PlayerRow
from spider_tui.palast.protocol import Refusal

if TYPE_CHECKING:
    from spider_tui.palast.server.lobby import Palast
    from spider_tui.palast.server.table import LiveTable

log = logging.getLogger("spider.palast")

#: House bots are named "House bot 1", "House bot 2", … (a name a person took is skipped).
NAME = "House bot {}"
MAX_BOTS = 500


def plan_moves(position: str) -> list[str]:
    """The fair bot's line on a view (SPEC §14): move texts; empty when it has nothing."""
    view = Game.from_text(position)
    return [str(move) for move in fairbot.plan(view)]


class HouseBots:
    """Seats house bots at standard tables where a person waits alone, and plays them."""

    def __init__(self, palast: Palast, after: float, pace: float, rng: random.Random | None = None) -> None:
        self.palast = palast
        self.after = after
        self.pace = pace
        self.rng = rng or random.Random(secrets.randbits(64))
        self.alone_since: dict[int, float] = {}  # standard table id -> when its one person sat alone
        self.playing: dict[int, asyncio.Task] = {}  # bot player id -> its task
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palast-house-bots")
        self._seating = asyncio.Lock()
        self._filling: set[int] = set()  # tables a fill is on its way to

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Bots seated at live tables (before a restart) play on."""
        p = self.palast
        for t in list(p.tables.values()):
            for s in t.seats:
                if s.bot and not s.left:
                    bot = await p.store.player_by_name(s.name)
                    if bot is not None:
                        self._play(bot)

    def stop(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ seating
    def check(self) -> None:
        """Called every sweep: a standard table where one person has waited alone long enough
        gets its bots."""
        p = self.palast
        now = p.clock()
        alone = set()
        for t in list(p.tables.values()):
            row = t.row
            if not row.standard or row.state != WAITING:
                continue
            people = [s for s in t.seats if not s.bot]
            if len(people) != 1 or len(t.seats) >= row.seats:
                continue
            alone.add(t.id)
            since = self.alone_since.setdefault(t.id, now)
            if now - since >= self.after and t.id not in self._filling:
                self._filling.add(t.id)
                p.spawn(self.fill(t))
        for tid in list(self.alone_since):
            if tid not in alone:
                del self.alone_since[tid]

    async def fill(self, t: LiveTable) -> None:
        """Seat bots at ``t`` until it is full (or a person or bot can't sit any more)."""
        p = self.palast
        try:
            await self._fill(t)
        finally:
            self._filling.discard(t.id)

    async def _fill(self, t: LiveTable) -> None:
        p = self.palast
        async with self._seating:
            await t.reload_row()
            await t.load_seats()
            number = 0
            while t.row.state == WAITING and len(t.seats) < t.row.seats:
                bot, number = await self._free_bot(number)
                if bot is None:
                    break
                reason = await p.store.seat(t.id, bot.id, p.clock())
                if reason:
                    if reason.startswith("You already sit"):
                        continue  # seated elsewhere meanwhile (another process): the next one
                    break
                await t.load_seats()
                self._play(bot)
            self.alone_since.pop(t.id, None)
            if p.cluster:
                p.cluster.announce(t.id, {"type": "_table", "table": t.id})
            await t.publish(m.TableChanged(table=t.info()).to_json())
            if len(t.seats) >= t.row.seats:
                await t.auto_start()
            await p.ensure_standard()

    async def _free_bot(self, after: int) -> tuple[PlayerRow | None, int]:
        """A house bot sitting at no table (registered when none is free), and its number."""
        store = self.palast.store
        for n in range(after + 1, MAX_BOTS + 1):
            name = NAME.format(n)
            bot = await store.player_by_name(name)
            if bot is None:
                bot = await store.register(name, "house-bot:" + secrets.token_hex(16), self.palast.clock(), bot=True)
                if bot is None:
                    continue  # the name is a person's
            if not bot.bot or bot.id in self.playing or await store.table_of(bot.id) is not None:
                continue
            return bot, n
        return None, MAX_BOTS

    # ------------------------------------------------------------------ playing
    def _play(self, bot: PlayerRow) -> None:
        if bot.id in self.playing:
            return
        task = self.palast.spawn(self._run(bot))  # cancelled when the Palast stops
        self.playing[bot.id] = task

        def done(_t: asyncio.Task) -> None:
            self.playing.pop(bot.id, None)

        task.add_done_callback(done)

    def _people_playing(self, bot_id: int) -> bool:
        """Is a person at the bot's table still playing this round (not done, left or out)?"""
        p = self.palast
        t = p.table_of(bot_id)
        if t is None:
            return True
        return any(not s.bot and s.game is not None and t.state_of(s) == "playing" for s in t.seats)

    def _wait(self) -> float:
        """Seconds before the next action: a human pace, never the same twice."""
        return self.pace * self.rng.uniform(0.5, 1.5)

    async def _run(self, bot: PlayerRow) -> None:
        p = self.palast
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[dict | str] = asyncio.Queue()

        def send(message: dict | str) -> None:
            inbox.put_nowait(message)

        p.connect(bot.id, send)
        try:
            for message in await p.resume(bot):
                inbox.put_nowait(message)
            position: str | None = None
            line: list[str] = []
            next_at = loop.time()
            while True:
                timeout = None if position is None else max(0.0, next_at - loop.time())
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel that
                # comes as a message arrives, and the bot then waited for ever (Palast.stop hung).
                try:
                    async with asyncio.timeout(timeout):
                        raw = await inbox.get()
                except TimeoutError:
                    raw = None
                if raw is not None:
                    try:
                        msg = m.read_server(json.loads(raw) if isinstance(raw, str) else raw)
                    except m.BadMessage:  # pragma: no cover - this server's own messages fit
                        continue
                    if isinstance(msg, m.Round):
                        position, line = msg.position, []
                        next_at = loop.time() + self._wait()
                    elif isinstance(msg, m.RoundOver):
                        position = None
                    elif isinstance(msg, (m.TableOver, m.Closed)):
                        return
                    continue
                if position is None:
                    continue
                if not self._people_playing(bot.id):
                    line = ["give up"]  # nobody left to race: the round ends now, not by its clock
                if not line:
                    try:
                        line = await loop.run_in_executor(self._pool, plan_moves, position)
                    except PositionError:  # pragma: no cover - the server's own view
                        line = []
                move = line.pop(0) if line else "give up"
                try:
                    answer = await p.play(bot, move)
                except Refusal:
                    position, line = None, []  # the round is over (or ending): wait for the next
                    continue
                position = answer["position"] if answer.get("state") == "playing" else None
                if answer.get("turned_up") or answer.get("dealt"):
                    line = []  # a card came up: look again
                next_at = loop.time() + self._wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("house bot %s stopped", bot.name)
        finally:
            p.disconnect(bot.id, send)
