"""Bot players (``spider bots``, SPEC §13): N connections at standard tables, each playing as the
fair bot (SPEC §14, ``spider_tui.engine.fairbot.plan``): it sees only what a player sees (the
``position`` views the server sends), never undoes, plans a line up to the first card it turns
up (or a deal), plays it, and plans again; it gives up when the plan is empty (stuck).

- ``level`` (1 to 5) is the plan's size (``fairbot.LEVELS``: positions a plan looks at); level 0
  plays the hint instead (cheap: for load tests with hundreds of bots).
- ``pace``: ``"fast"`` plays R actions a second; ``"human"`` waits as a person would
  (``human_delay``: a few seconds before the first move of a plan, about a second between the
  moves of a planned line), whatever R is.

The summary counts accepted actions, refusals, errors, the rounds finished at their tables, and
the action→answer time (p50/p99 in ms; ``steady_p50_ms``/``steady_p99_ms`` over the answers from
a third into the run on, when everyone has connected and sat down); ``errors_by_kind`` says what each error was (refused,
closed, timed out, turned away, with the server's reason), and ``turned_away`` counts the
connections the server refused before the handshake for its per-address limits (HTTP 429).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from spider_tui.engine import Game, Move, fairbot
from spider_tui.engine.cards import UNKNOWN

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
    kinds: Counter = field(default_factory=Counter)  # what each error was -> how many
    turned_away: int = 0  # connections refused before the handshake for per-address limits (429)
    turned_away_reason: str = ""
    steady_from: int | None = None  # the answer times from here on are the steady part (a third into the run)

    def error(self, kind: str) -> None:
        self.errors += 1
        self.kinds[plain_line(kind)] += 1

    def summary(self) -> dict:
        t = sorted(self.times)

        def pct(p: float) -> float | None:
            if not t:
                return None
            return round(t[min(len(t) - 1, int(p * len(t)))] * 1000, 2)

        out = {"players": self.players, "actions": self.actions, "refused": self.refused, "errors": self.errors,
               "rounds_finished": len(self.rounds), "p50_ms": pct(0.50), "p99_ms": pct(0.99),
               "turned_away": self.turned_away, "errors_by_kind": dict(self.kinds.most_common(10))}
        if self.steady_from is not None:  # after everyone had time to connect and sit down
            t = sorted(self.times[self.steady_from:])
            out.update(steady_answers=len(t), steady_p50_ms=pct(0.50), steady_p99_ms=pct(0.99))
        return out


def plain_line(text: str, width: int = 160) -> str:
    """One line of a server's words, safe for a terminal (no control characters), cut to ``width``."""
    one = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return one if len(one) <= width else one[: width - 1] + "…"


def closed_reason(c: PalastClient) -> str:
    """Why a connection ended: the server's last ``error`` reason, else its close frame's."""
    if c.last_error is not None:
        return c.last_error
    rcvd = getattr(c.ws, "close_reason", None)
    code = getattr(c.ws, "close_code", None)
    if rcvd:
        return f"{rcvd} (code {code})"
    return f"code {code}" if code is not None else "no reason given"


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


#: The events a bot reads (the progress of the others at its table is dropped unread).
BOT_EVENTS = (m.Round.TYPE, m.RoundOver.TYPE, m.TableOver.TYPE)


def next_view(view: Game, move: Move | str, answer: m.Played) -> Game:
    """The bot's view after its ``move`` was played: the same move on its own view, told the
    cards the answer turned up or dealt (``Game.tell``), which is much cheaper than reading the
    whole position again; the position is read anew only when the two disagree on the move count
    or the score (never seen: a guard)."""
    try:
        view.play(move)
        if answer.dealt:
            told = view.tell_row(answer.dealt)
            # the wire names columns 1-10, the engine 0-9
            later = [(t.column - 1, t.card) for t in answer.turned_up if UNKNOWN in view.columns[t.column - 1]]
            if later or (told is not None and told.turned_up):
                view.tell(later)
        elif answer.turned_up:
            view.tell([(t.column - 1, t.card) for t in answer.turned_up])
    except Exception:  # any surprise: the server's word is the view
        return Game.from_text(answer.position)
    if view.moves != answer.moves or view.score != answer.score:
        return Game.from_text(answer.position)
    return view


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
                    if e.code is m.Code.ALREADY_SEATED:  # by its code, not its words
                        return
        await asyncio.sleep(0.2)


async def _bot(url: str, name: str, rate: float, deadline: float, tally: Tally,
               level: int = DEFAULT_LEVEL, pace: str = "fast") -> None:
    token = None
    loop = asyncio.get_running_loop()
    rng = random.Random(name)
    line: list[Move | str] = []  # the rest of the current plan
    step = ["hello"]  # what the bot waits for: its errors say so

    def wait_before(first: bool) -> float:
        return human_delay(rng, first) if pace == "human" else 1 / rate

    while time.monotonic() < deadline:
        try:
            # no pings of its own (1,000 bots sent 50 a second): the server pings every
            # connection, a closed one is noticed at once, and while playing a bot asks something
            # every second or so, whose timeout notices a server gone silent
            c = await PalastClient.connect(url, events=BOT_EVENTS, ping_interval=None)
        except InvalidStatus as e:
            status = e.response.status_code
            body = plain_line(e.response.body.decode("utf-8", "replace")) if e.response.body else ""
            if status == 429:
                tally.turned_away += 1
                tally.turned_away_reason = body
            tally.error(f"turned away (HTTP {status}): {body or 'no reason given'}")
            await asyncio.sleep(2)
            continue
        except (OSError, asyncio.TimeoutError, InvalidHandshake, InvalidURI) as e:
            what = "timed out connecting" if isinstance(e, asyncio.TimeoutError) else f"can't connect: {e}"
            tally.error(what)
            await asyncio.sleep(1)
            continue
        try:
            step[0] = "hello"
            await c.hello(name, token)
            token = c.token
            step[0] = "a seat"
            await _sit(c, deadline)
            view: Game | None = None
            line = []
            next_at = loop.time()
            while time.monotonic() < deadline:
                wait = deadline - time.monotonic()
                if view is not None:
                    wait = min(wait, max(0.0, next_at - loop.time()))
                got = await c.event_within(wait)  # no exception when none comes: the usual case
                if got is None and c.closed.is_set():
                    raise ConnectionError("closed")
                ev = got.message if got is not None else None
                if isinstance(ev, m.Round):
                    view = Game.from_text(ev.position)
                    line = []
                    next_at = loop.time() + wait_before(True)
                elif isinstance(ev, m.RoundOver):
                    tally.rounds.add((ev.table, ev.round))
                    view = None
                    try:
                        step[0] = "ready"
                        await c.ready()
                    except Refused:
                        pass  # the last round: table_over follows
                elif isinstance(ev, m.TableOver):
                    view = None
                    step[0] = "a seat"
                    await _sit(c, deadline)
                if view is not None and loop.time() >= next_at and time.monotonic() < deadline:
                    if not line and level <= 0:  # the hint: cheaper than a hop to a thread
                        hint = view.hint()  # the Move itself: the view plays it without reading text
                        line = [hint if hint is not None else "give up"]
                    elif not line:
                        # Planning takes CPU: in a thread, so the connection keeps answering.
                        line = list(await asyncio.to_thread(bot_line, view, level))
                    move = line.pop(0)
                    t0 = time.perf_counter()
                    step[0] = "play"
                    answer = (await c.play(str(move))).message
                    tally.times.append(time.perf_counter() - t0)
                    next_at = max(next_at + wait_before(not line), loop.time())
                    if isinstance(answer, m.Played):
                        tally.actions += 1
                        if answer.state != "playing":
                            view = None  # solved, gave up or stuck: wait for the round's end
                        else:
                            view = next_view(view, move, answer)
                    else:
                        tally.refused += 1
                        view = None
                        line = []
            await c.close()
            return
        except Refused as e:
            tally.error(f"refused: {e.reason or 'no reason given'}")
        except asyncio.TimeoutError:
            tally.error(f"timed out waiting for the server's answer ({step[0]})")
        except (ConnectionError, ConnectionClosed, OSError):
            tally.error(f"closed by the server: {closed_reason(c)}")
        except Exception as e:  # noqa: BLE001 - a bot never ends the run with a traceback
            tally.error(f"unexpected: {type(e).__name__}: {e}")
        try:
            await c.close()
        except Exception:  # noqa: BLE001
            pass
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

    def steady() -> None:
        tally.steady_from = len(tally.times)

    later = asyncio.get_running_loop().call_later(seconds / 3, steady)
    await asyncio.gather(*(_bot(url, f"bot-{run}-{i}", rate, deadline, tally, level, pace) for i in range(players)))
    later.cancel()
    if reporter is not None:
        reporter.cancel()
    return tally.summary()
