"""House bots (SPEC §13 "House bots and the embedded Palast"): nobody waits alone.

When a person has sat alone at a standard table for ``Options.house_bots_after`` seconds, the
server seats house bots until the table is full (it then starts by itself).  A house bot is a
player of this server marked ``bot`` in the database: it shows as a bot wherever names show
(``bot: true`` in the protocol), never gets a league rating, and a table whose only person plays
with bots counts as Training for the league (``LiveTable.finish``).

A bot plays in this process as any player does, through ``Palast.play``, and sees only what a
player sees: the ``position`` views the server sends it (every face-down and stock card ``??``).
Its moves are the fair bot's (``spider_tui.engine.fairbot.plan(view)``, SPEC §14), one action
every ``house_bot_pace`` seconds on average (a human pace); it never undoes, and gives up when
the fair bot has nothing to play.  A bot seated at a table when the server restarts plays on.

The bots at one table play visibly different games: each gets a style drawn from a generator
seeded by the table and the bot (a level, its own pace, and a plan size that varies from plan to
plan within its level, so their lines part).  Once no person at the table is still playing the
round (they solved, gave up, are stuck, left or are out), the bots play on briskly for
``house_finish_seconds`` to a real result, and a bot still playing then stops: its seat reads
"stopped" (shown "stopped when you finished"), never a give-up it didn't choose.

Budgets (SPEC §13, issue 29 item 5): the search runs in a child process (off the server's event
loop and its interpreter lock), one plan at a time, and its CPU time is paid from a bucket
that fills at ``house_cpu`` seconds a second: bots over it wait.  At most ``house_tables``
tables have house bots at once, and a person who hasn't acted for ``house_idle_seconds`` gets
no new bots.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
import secrets
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spider_tui.engine import Game, PositionError
from spider_tui.engine import fairbot
from spider_tui.engine.solve import Weights

from spider_tui.palast import messages as m
from spider_tui.palast.server.db import FINISHED, WAITING, PlayerRow
from spider_tui.palast.protocol import Refusal

if TYPE_CHECKING:
    from spider_tui.palast.server.lobby import Palast
    from spider_tui.palast.server.table import LiveTable

log = logging.getLogger("spider.palast")

#: House bots are named "House bot 1", "House bot 2", … (a name a person took is skipped).
NAME = "House bot {}"
MAX_BOTS = 500


#: The plan sizes of the levels house bots play at (``fairbot.LEVELS``: 250, 1000, 4000).
BOT_LEVELS = (1, 2, 3)
#: A bot's pace against the server's ``house_bot_pace``: slower and quicker players.
PACES = (0.7, 1.0, 1.45)
#: CPU seconds the bucket holds at most (a burst of plans after a quiet spell).
CPU_BURST = 2.0


def plan_moves(position: str, budget: int = fairbot.PLAN_NODES, weights: Weights | None = None) -> list[str]:
    """The fair bot's line on a view (SPEC §14): move texts; empty when it has nothing."""
    view = Game.from_text(position)
    return [str(move) for move in fairbot.plan(view, budget, weights=weights)]


def timed_plan(position: str, budget: int, weights: Weights | None = None) -> tuple[list[str], float]:
    """``plan_moves`` and the CPU seconds it took (run in the child process)."""
    start = time.process_time()
    line = plan_moves(position, budget, weights)
    return line, time.process_time() - start


@dataclass(frozen=True)
class Style:
    """How one house bot plays at one table: a level (the plan size), a pace factor, and the
    seed of the generator that varies each plan's size within the level (SPEC §13: bots differ)."""

    level: int
    pace: float
    seed: int

    def budget(self, rng: random.Random) -> int:
        return max(50, int(fairbot.LEVELS[self.level - 1] * rng.uniform(0.5, 1.5)))

    @property
    def weights(self) -> Weights:
        """The bot's taste: the fair bot's ranking with each weight moved by up to a third."""
        rng = random.Random(self.seed)
        w = fairbot.FAIR_WEIGHTS
        return Weights(fragment=int(w.fragment * rng.uniform(0.67, 1.33)), down=int(w.down * rng.uniform(0.67, 1.33)),
                       good=int(w.good * rng.uniform(0.5, 1.5)), empty=int(w.empty * rng.uniform(0.5, 1.5)),
                       done=w.done, run=rng.choice((0, 1, 2)))


def styles(table_id: int, bots: int, seed: int) -> list[Style]:
    """The styles of a table's bots: distinct levels and paces while there are enough, drawn from
    a generator seeded by the table (the same table plays the same way again)."""
    rng = random.Random(f"{seed}:{table_id}")
    levels, paces = list(BOT_LEVELS), list(PACES)
    rng.shuffle(levels)
    rng.shuffle(paces)
    return [Style(levels[i % len(levels)], paces[(i + i // len(paces)) % len(paces)], rng.getrandbits(32))
            for i in range(bots)]


class CpuBudget:
    """A bucket of CPU seconds that fills at ``share`` seconds a second up to ``CPU_BURST``:
    the house bots' plans pay from it, and wait while it is empty."""

    def __init__(self, share: float, clock=time.monotonic) -> None:
        self.share = max(1e-3, share)
        self.clock = clock
        self.level = CPU_BURST
        self.at = clock()
        self.spent = 0.0

    def _fill(self) -> None:
        now = self.clock()
        self.level = min(CPU_BURST, self.level + (now - self.at) * self.share)
        self.at = now

    def wait(self) -> float:
        """Seconds before the next plan may start (0 when the bucket has something)."""
        self._fill()
        return 0.0 if self.level > 0 else -self.level / self.share

    def pay(self, seconds: float) -> None:
        self._fill()
        self.level -= seconds
        self.spent += seconds


class HouseBots:
    """Seats house bots at standard tables where a person waits alone, and plays them."""

    def __init__(self, palast: Palast, after: float, pace: float, rng: random.Random | None = None) -> None:
        self.palast = palast
        self.after = after
        self.pace = pace
        self.rng = rng or random.Random(secrets.randbits(64))
        self.seed = self.rng.getrandbits(32)
        o = palast.options
        self.max_tables = getattr(o, "house_tables", 16)
        self.idle = getattr(o, "house_idle_seconds", 60.0)
        self.finish = getattr(o, "house_finish_seconds", 20.0)
        self.cpu = CpuBudget(getattr(o, "house_cpu", 0.25))
        self.alone_since: dict[int, float] = {}  # standard table id -> when its one person sat alone
        self.playing: dict[int, asyncio.Task] = {}  # bot player id -> its task
        self._pool: Executor | None = None  # the child process the plans run in (made at first use)
        self._thinking = asyncio.Lock()  # one plan at a time
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
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _executor(self) -> Executor:
        if self._pool is None:
            try:  # a fresh interpreter (not a fork of a server with threads and sockets)
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            except (OSError, ValueError, NotImplementedError):  # pragma: no cover - no processes here
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palast-house-bots")
        return self._pool

    async def think(self, position: str, budget: int, weights: Weights | None = None) -> list[str]:
        """The fair bot's line, planned in the child process within the CPU budget."""
        loop = asyncio.get_running_loop()
        async with self._thinking:
            while (wait := self.cpu.wait()) > 0:
                await asyncio.sleep(wait)
            try:
                line, cpu = await loop.run_in_executor(self._executor(), timed_plan, position, budget, weights)
            except BrokenProcessPool:  # the child died (killed, out of memory): a new one next time
                self._pool = None
                return []
            self.cpu.pay(cpu)
            return line

    def bot_tables(self) -> int:
        """Live tables with house bots seated (and fills on their way)."""
        busy = {t.id for t in self.palast.tables.values() if t.row.state != FINISHED and any(s.bot for s in t.seats)}
        return len(busy | self._filling)

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
            acted = p.acted.setdefault(people[0].player_id, now)
            if now - acted >= self.idle:
                continue  # a person idle this long gets no new bots (SPEC §13)
            if now - since >= self.after and t.id not in self._filling and self.bot_tables() < self.max_tables:
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
                    if reason.code is m.Code.ALREADY_SEATED:
                        continue  # seated elsewhere meanwhile (another process): the next one
                    break
                await t.load_seats()
                self._play(bot)
            self.alone_since.pop(t.id, None)
            if p.cluster:
                p.cluster.announce(t.id, m.TableNews(table=t.id))
            await t.publish(m.TableChanged(table=t.info()))
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

    def style(self, bot_id: int) -> Style:
        """The bot's style at its table (by its place among the table's bots)."""
        t = self.palast.table_of(bot_id)
        bots = [s.player_id for s in t.seats if s.bot] if t is not None else [bot_id]
        index = bots.index(bot_id) if bot_id in bots else 0
        return styles(t.id if t is not None else 0, max(len(bots), index + 1), self.seed)[index]

    def _wait(self, style: Style, rng: random.Random) -> float:
        """Seconds before the next action: the bot's own human pace, never the same twice."""
        return self.pace * style.pace * rng.uniform(0.5, 1.5)

    def _stop_seat(self, bot_id: int) -> None:
        """Mark the bot's seat as stopped when the people had finished (its give-up follows)."""
        t = self.palast.table_of(bot_id)
        seat = t.seat(bot_id) if t is not None else None
        if seat is not None:
            seat.stopped = True

    async def _run(self, bot: PlayerRow) -> None:
        p = self.palast
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[m.Message | dict | str] = asyncio.Queue()

        def send(message: m.Message | dict | str) -> None:
            inbox.put_nowait(message)

        p.connect(bot.id, send)
        try:
            for message in await p.resume(bot):
                inbox.put_nowait(message)
            position: str | None = None
            line: list[str] = []
            next_at = loop.time()
            style = self.style(bot.id)
            rng = random.Random(style.seed)
            hurry_until: float | None = None  # the people are done: play on briskly until then
            while True:
                # a look at least every second: the people may have finished meanwhile
                timeout = None if position is None else min(1.0, max(0.0, next_at - loop.time()))
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel that
                # comes as a message arrives, and the bot then waited for ever (Palast.stop hung).
                try:
                    async with asyncio.timeout(timeout):
                        raw = await inbox.get()
                except TimeoutError:
                    raw = None
                if raw is not None:
                    try:
                        msg = raw if isinstance(raw, m.Message) else m.read_server(
                            json.loads(raw) if isinstance(raw, str) else raw)
                    except m.BadMessage:  # pragma: no cover - this server's own messages fit
                        continue
                    if isinstance(msg, m.Round):
                        style = self.style(bot.id)  # the table's bots are all seated by now
                        rng = random.Random(f"{style.seed}:{msg.round}")
                        position, line, hurry_until = msg.position, [], None
                        next_at = loop.time() + self._wait(style, rng)
                    elif isinstance(msg, m.RoundOver):
                        position = None
                    elif isinstance(msg, (m.TableOver, m.Closed)):
                        return
                if position is None:
                    continue
                brisk = not self._people_playing(bot.id)
                if brisk and hurry_until is None:
                    hurry_until = loop.time() + self.finish
                    next_at = min(next_at, loop.time() + self._wait(style, rng) / 20)
                if loop.time() < next_at:
                    continue
                if brisk and hurry_until is not None and loop.time() >= hurry_until:
                    self._stop_seat(bot.id)  # no real result in time: "stopped when you finished"
                    line = ["give up"]
                if not line:
                    try:
                        line = await self.think(position, style.budget(rng), style.weights)
                    except PositionError:  # pragma: no cover - the server's own view
                        line = []
                move = line.pop(0) if line else "give up"
                try:
                    answer = await p.play(bot, move)
                except Refusal:
                    position, line = None, []  # the round is over (or ending): wait for the next
                    continue
                position = answer.position if answer.state == "playing" else None
                if answer.turned_up or answer.dealt:
                    line = []  # a card came up: look again
                wait = self._wait(style, rng)
                next_at = loop.time() + (wait / 20 if brisk else wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("house bot %s stopped", bot.name)
        finally:
            p.disconnect(bot.id, send)
