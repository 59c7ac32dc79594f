"""``spider --describe --server URL``: the Palast as a stream of lines (SPEC §17, §13).

The same :class:`~spider_tui.palast.client.session.PalastSession` as the Palast screens, and the
race through the same :class:`~spider_tui.describe.Describer` as a solo round (the race's
:class:`~spider_tui.palast.client.session.PalastRound`).  Lobby commands: ``l`` lists the tables,
``o`` opens one, ``j N`` joins table N, ``s`` starts it (the host), ``r`` says ready for the next
round, ``x`` leaves the table, ``p`` says the others' progress, ``q`` quits.  A move is said once
the server has answered it, with the card it turned up.

What happens at the table is said as it happens (a round begins, a round is over, the table is
over); the others' progress is said after an answer, at most once every 30 seconds, so it never
comes in the middle of a line being typed.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from spider_tui.describe import LINE_LIMIT, Describer
from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.i18n import N_, _, ngettext
from spider_tui.safe_text import visible

if TYPE_CHECKING:
    from spider_tui.palast import messages as m
    from spider_tui.palast.client.session import PalastSession
    from spider_tui.store.book import SaveBook

PROGRESS_EVERY = 30.0  # seconds between two read-outs of the others' progress, at the most
ANSWER_WAIT = 10.0  # seconds a move waits for the server's answer before it is said anyway

PALAST_HELP = (
    N_("At the Palast, each ended by Enter: l lists the tables, o opens a table (o 2 3: 2 suits, 3 rounds),"),
    N_("j 4 joins table 4, s starts your table, r says you are ready for the next round, x leaves the table,"),
    N_("p says the others' progress, q quits. In a round the moves and read-outs are the solo ones; g gives up."),
)


def who(value: str) -> str:
    """A name or word from the network on one line, cut to 32 characters."""
    return visible(value, newlines=False)[:32]


class PalastLines:
    """One player's line front end at a Palast.  ``say`` writes lines; ``clock`` is monotonic."""

    def __init__(self, palast: PalastSession, say: Callable[[list[str]], None], *, ascii: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from spider_tui.palast.client.session import PalastRound

        self.palast = palast
        self.say = say
        self.clock = clock
        self.describer = Describer(PalastRound(palast), ascii=ascii)
        self.done = False
        self._progress_said = -PROGRESS_EVERY
        self._progress_seen = False
        self._seat_said = ""
        self._answering = False
        palast.on_change = self.changed

    # ------------------------------------------------------------------ what the server did
    def changed(self, what: str) -> None:
        p = self.palast
        if what == "round" and p.race is not None:
            rounds = p.table.rounds if p.table is not None else 0
            minutes = int((p.race.time_left or 0) + 59) // 60
            head = _("Round {n} of {rounds} begins: {minutes} minutes.").format(n=p.round, rounds=rounds,
                                                                               minutes=minutes)
            self.describer.last = None
            self.say([head, *self.describer.read_table(), self.describer.stock_line()])
        elif what == "standings" and p.standings is not None:
            self.say(self.standings_lines())
        elif what == "final" and p.ranking is not None:
            self.say(self.ranking_lines())
        elif what == "seat" and not self._answering:  # else the answer says the seat itself
            text = self.seat_line()
            if text and text != self._seat_said:
                self._seat_said = text
                self.say([text])
        elif what == "progress":
            self._progress_seen = True
        elif what in ("status", "offline", "online") and p.status:
            self.say([p.status])

    def seat_line(self) -> str:
        t = self.palast.table
        if t is None:
            return ""
        players = [who(n) for n in t.players]
        line = _("Table {id}: {players} seated of {seats}.").format(
            id=t.id, players=", ".join(players) or "-", seats=t.seats)
        if t.state == "waiting" and self.palast.is_host:
            line += " " + _("Type s to start it.")
        return line

    def standings_lines(self) -> list[str]:
        st = self.palast.standings
        if st is None:
            return []
        lines = [_("Round {n} is over.").format(n=st.round)]
        for row in st.standings:
            lines.append(_("{player}: {score} points this round, {total} in all, {moves} moves{solved}.").format(
                player=who(row.player), score=row.score, total=row.total,
                moves=row.moves, solved=_(", solved") if row.solved else ""))
        t = self.palast.table
        if t is not None and t.round < t.rounds:
            lines.append(_("Type r when you are ready for the next round."))
        return lines

    def ranking_lines(self) -> list[str]:
        lines = [_("The table is over.")]
        for row in self.palast.ranking or []:
            lines.append(_("{place}. {player}, {total} points.").format(
                place=row.place, player=who(row.player), total=row.total))
        return lines

    def progress_lines(self) -> list[str]:
        ops = self.palast.opponents
        if not ops:
            return [_("Nobody else is at this table.")]
        lines = []
        for p in ops.values():
            state = who(p.state or "playing")
            lines.append(_("{player}: {score} points, {runs} runs, {moves} moves, {state}.").format(
                player=who(p.player), score=p.score or 0, runs=p.runs, moves=p.moves, state=state))
        return lines

    # ------------------------------------------------------------------ what the player typed
    async def handle(self, line: str) -> list[str]:
        self._answering = True
        try:
            return await self._handle(line)
        finally:
            self._answering = False

    async def _handle(self, line: str) -> list[str]:
        if len(line) > LINE_LIMIT:
            return [_("That line is too long to be a command. Type h for help.")]
        word = " ".join(line.split()).lower()
        p = self.palast
        in_race = p.phase == "race" and p.race is not None and not p.race.over
        if word in ("q", "quit"):
            self.done = True
            return [_("Goodbye. Your seat stays until the round ends.") if p.table is not None else _("Goodbye.")]
        if word in ("h", "help"):
            return [_(s) for s in PALAST_HELP] + ([] if not in_race else self.describer.handle("h")[1:])
        if word == "p":
            self._progress_said = self.clock()
            return self.progress_lines()
        if word == "x":
            if p.table is None:
                return [_("You are not at a table.")]
            return [_("You left the table.") if await p.leave() else p.status or _("Nothing changed.")]
        if in_race:
            if word in ("n", "r"):
                return [_("A Palast table plays its own rounds: no new deal, no retry.")]
            if word == "g":
                assert p.race is not None
                return [p.race.status_line if p.race.give_up() else p.race.status_line or _("Nothing changed.")]
            answer = self.describer.handle(line)
            await self.settled()
            if self.describer.pending_move:
                answer = [self.describer.finish_move()]
            return answer
        return await self.lobby(word)

    async def settled(self) -> None:
        """Wait (a bounded while) until the server has answered every action sent."""
        end = self.clock() + ANSWER_WAIT
        while self.palast.race is not None and self.palast.pending_actions and self.clock() < end:
            await asyncio.sleep(0.02)

    async def lobby(self, word: str) -> list[str]:
        p = self.palast
        if word == "l":
            await p.refresh()
            if not p.tables:
                return [_("No tables yet. Type o to open one.")]
            return [self.table_line(t) for t in p.tables[:20]]
        if word == "o" or word.startswith("o "):
            args = word[1:].split()
            if not all(a.isascii() and a.isdigit() for a in args) or len(args) > 2:
                return [_("Open a table like this: o 2 3 (2 suits, 3 rounds).")]
            suits = int(args[0]) if args else 1
            rounds = int(args[1]) if len(args) > 1 else 3
            if suits not in SUIT_COUNTS or not 1 <= rounds <= 10:
                return [_("Suits are 1, 2 or 4; rounds 1 to 10.")]
            if not await p.open(suits=suits, rounds=rounds):
                return [p.status or _("The table could not be opened.")]
            self._seat_said = self.seat_line()
            return [self._seat_said]
        if word.startswith("j"):
            arg = word[1:].strip()
            if not (arg.isascii() and arg.isdigit()):
                return [_("Join a table like this: j 4 (its number in l).")]
            if not await p.join(table=int(arg)):
                return [p.status or _("You could not join that table.")]
            self._seat_said = self.seat_line()
            return [self._seat_said]
        if word == "s":
            if p.table is None:
                return [_("You are not at a table.")]
            if not await p.start_table():
                return [p.status or _("The table did not start.")]
            return [] if p.phase == "race" else [_("Starting.")]  # the round's beginning is said already
        if word == "r":
            if p.phase != "standings":
                return [_("Nothing to be ready for now.")]
            return [_("Ready. The next round starts when everyone is.")] if await p.ready() else [p.status]
        if p.phase == "race":
            return [_("The round is over for you; the others are still playing.")]
        return [_("Type l for the tables, o to open one, j and a number to join, h for help.")]

    def table_line(self, t: m.TableInfo) -> str:
        suits, rounds = t.suits, t.rounds
        return _("Table {id}: {suits}, {rounds}, {rules}, {seated} of {seats} seated, {state}.").format(
            id=t.id, suits=ngettext("{n} suit", "{n} suits", suits).format(n=suits),
            rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds), rules=who(t.rules or "classic"),
            seated=len(t.players), seats=t.seats, state=who(t.state or ""))

    def news(self) -> list[str]:
        """After an answer: the others' progress, when it changed and 30 seconds have passed."""
        if not self._progress_seen or self.palast.phase != "race":
            return []
        now = self.clock()
        if now - self._progress_said < PROGRESS_EVERY:
            return []
        self._progress_said = now
        self._progress_seen = False
        return self.progress_lines()


async def run_palast(palast: PalastSession, *, ascii: bool, stdin: TextIO, stdout: TextIO) -> None:
    """Sign in, then answer each line of ``stdin`` until ``q`` or its end."""
    def say(lines: list[str]) -> None:
        for text in lines:
            stdout.write(text + "\n")
        stdout.flush()

    front = PalastLines(palast, say, ascii=ascii)
    await palast.start()
    say([_("At the Palast {url} as {name}. Type h for help, l for the tables.").format(
        url=who(palast.url), name=who(palast.name))])
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:  # a daemon thread: a blocked read never holds the exit
        while True:
            text = stdin.readline(LINE_LIMIT * 4 + 1)
            loop.call_soon_threadsafe(lines.put_nowait, text or None)
            if not text:
                return

    threading.Thread(target=reader, daemon=True).start()
    try:
        while not front.done:
            text = await lines.get()
            if text is None:
                break
            say(await front.handle(text.rstrip("\n")))
            say(front.news())
    finally:
        await palast.close()


def play_palast_lines(book: SaveBook, url: str, ascii: bool) -> int:
    """``spider --describe --server URL``: sign in under the name kept for this server (asked
    once, then kept with its token as the Palast screens keep it)."""
    from spider_tui.palast.client.session import PalastError, PalastSession
    from spider_tui.store.palast import put_login, server_login

    login = server_login(book.data, url)
    if login is None:
        sys.stdout.write(_("The name you play under at this Palast, then Enter:") + "\n")
        sys.stdout.flush()
        name = " ".join(sys.stdin.readline(LINE_LIMIT).split())
        if not name:
            return 0
        token = None
    else:
        name, token = login
    palast = PalastSession(url, name, token)
    try:
        asyncio.run(run_palast(palast, ascii=ascii, stdin=sys.stdin, stdout=sys.stdout))
    except PalastError as e:
        sys.stdout.write(visible(str(e), newlines=False) + "\n")
        return 1
    except KeyboardInterrupt:
        sys.stdout.write("\n")
    if palast.token:
        book.write(lambda d: put_login(d, url, palast.name, palast.token or ""))
    return 0


__all__ = ["PalastLines", "play_palast_lines", "run_palast"]
