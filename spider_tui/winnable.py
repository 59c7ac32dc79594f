"""Winnable deals and "Could this still be won?" (SPEC §14), as plain logic without Textual.

- ``ProvedDeals``: deal numbers the solver proved winnable, per suit count, kept in
  ``winnable.json`` in the data dir (written atomically; a file that can't be read starts
  empty, it is only a cache).  "Winnable deals only" takes its New deals from here.
- ``Prover``: a background thread that keeps a few proved numbers ready per suit count, so a
  new deal never waits for the solver (each proof in a child process, ``spider_tui.search``); ``prove_now`` for when none is ready yet.
- ``Question``: asks the solver about one position in a background thread; cancellable.
- ``SolverRun``: the one way solver work runs off the UI thread (the three above, and the app's
  search for a winnable deal when none is ready): a daemon thread, a cancel, an answer.

The solver looks at face-down cards and the stock, so asking about a round in play turns it
into practice (the UI says so before it asks).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from spider_tui.engine import MAX_DEAL, MIN_DEAL, Game
from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.engine.solve import UNKNOWN, WINNABLE, Solution, solve
from spider_tui.i18n import _, ngettext

CACHE_NAME = "winnable.json"
PROVE_SECONDS = 10.0  # solver time for one candidate deal
QUESTION_SECONDS = 30.0  # solver time for "Could this still be won?"
AHEAD = 5  # proved numbers kept ready per suit count
KEEP = 200  # at most this many kept per suit count

T = TypeVar("T")


class SolverRun(Generic[T]):
    """Solver work in a daemon thread (a solver run must never keep the program from exiting).

    ``work(cancel)`` runs in the thread and should stop soon after ``cancel`` is set; its result
    goes to ``done(result)``, called from the thread, unless :meth:`cancel` came first. The
    caller hands ``done``'s call to its UI thread."""

    def __init__(self, work: Callable[[threading.Event], T], done: Callable[[T], None] | None = None,
                 name: str = "spider-solver") -> None:
        self.work = work
        self.done = done
        self._cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> "SolverRun[T]":
        self.thread.start()
        return self

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def _run(self) -> None:
        result = self.work(self._cancel)
        if self.done is not None and not self._cancel.is_set():
            self.done(result)


class ProvedDeals:
    """Deal numbers proved winnable, per suit count, in ``winnable.json``."""

    def __init__(self, data_dir: str | os.PathLike[str]):
        self.path = Path(data_dir) / CACHE_NAME
        self._lock = threading.Lock()

    def load(self) -> dict[int, list[int]]:
        """The numbers on disk; anything unreadable counts as none (it is a cache)."""
        out: dict[int, list[int]] = {s: [] for s in SUIT_COUNTS}
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return out
        if not isinstance(raw, dict):
            return out
        for s in SUIT_COUNTS:
            numbers = raw.get(str(s))
            if isinstance(numbers, list):
                out[s] = [n for n in numbers if type(n) is int and MIN_DEAL <= n <= MAX_DEAL][-KEEP:]
        return out

    def _write(self, data: dict[int, list[int]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({str(s): data[s][-KEEP:] for s in SUIT_COUNTS}, indent=1)
        fd, tmp = tempfile.mkstemp(prefix=".winnable-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def count(self, suits: int) -> int:
        return len(self.load()[suits])

    def add(self, suits: int, number: int) -> None:
        with self._lock:
            data = self.load()
            if number not in data[suits]:
                data[suits].append(number)
                self._write(data)

    def take(self, suits: int) -> int | None:
        """A proved number for ``suits``, removed from the file (each is dealt once), or None."""
        with self._lock:
            data = self.load()
            if not data[suits]:
                return None
            number = data[suits].pop(0)
            try:
                self._write(data)
            except OSError:
                pass  # the number is still proved; it may come again, which is harmless
            return number


def proves_winnable(number: int, suits: int, seconds: float = PROVE_SECONDS,
                    cancel: threading.Event | None = None) -> bool:
    """Whether the solver finds a win for deal ``number`` within ``seconds`` of this thread's CPU
    time (as ``spider solve --seconds``: a busy machine or a busy UI thread doesn't change which
    deals are proved; a win it finds is checked by replaying it)."""
    deadline = time.thread_time() + seconds
    found = solve(Game.new(number, suits=suits),
                  stop=lambda: time.thread_time() >= deadline or (cancel is not None and cancel.is_set()))
    if found.result != WINNABLE:
        return False
    g = Game.new(number, suits=suits)
    for m in found.moves or []:
        g.play(m)
    return g.won


def prove_now(suits: int, rng: random.Random, cancel: threading.Event | None = None,
              tries: int = 50, seconds: float = PROVE_SECONDS) -> int | None:
    """Search random numbers until one proves winnable and return it, or None after ``tries``
    or a cancel.  In this process: the app calls ``search.find_winnable`` (a child) instead."""
    for _i in range(tries):
        if cancel is not None and cancel.is_set():
            return None
        number = rng.randint(MIN_DEAL, MAX_DEAL)
        if proves_winnable(number, suits, seconds, cancel=cancel):
            return number
    return None


class Prover:
    """Keeps ``AHEAD`` proved numbers ready for the suit counts asked for.  A daemon thread
    proves one candidate deal at a time, each in a child process (``spider_tui.search``), and
    ends when every suit count asked for has its numbers (``want`` starts it again): nothing
    stays behind when there is nothing to prove.  ``stop()`` ends it and kills its child."""

    def __init__(self, deals: ProvedDeals, rng: random.Random | None = None):
        self.deals = deals
        self.rng = rng or random.Random()
        self._wanted: list[int] = []
        self._lock = threading.Lock()
        self._stopped = False
        self._run_: SolverRun[None] | None = None

    def want(self, suits: int) -> None:
        """Prove ahead for ``suits`` (the current suit count first)."""
        with self._lock:
            if suits in self._wanted:
                self._wanted.remove(suits)
            self._wanted.insert(0, suits)
            if self._stopped or (self._run_ is not None and self._run_.running):
                return
            self._run_ = SolverRun(self._run, name="spider-prover").start()

    @property
    def running(self) -> bool:
        run = self._run_
        return run is not None and run.running

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._run_ is not None:
                self._run_.cancel()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the prover's thread (and so its child) to end."""
        run = self._run_
        if run is not None:
            run.thread.join(timeout)

    def _todo(self) -> list[int]:
        return [s for s in list(self._wanted) if self.deals.count(s) < AHEAD]

    def _run(self, cancel: threading.Event) -> None:
        from spider_tui import search

        while not cancel.is_set():
            with self._lock:
                todo = self._todo()
                if not todo:
                    self._run_ = None  # done: the thread ends, ``want`` starts a new one
                    return
            number = self.rng.randint(MIN_DEAL, MAX_DEAL)
            suits = todo[0]
            try:
                ok = search.proves(number, suits, PROVE_SECONDS, cancel)
            except Exception:  # never let a bad number kill the thread silently in a loop
                ok = False
                cancel.wait(30)  # a child that can't search (no memory, say): not in a tight loop
            if ok and not cancel.is_set():
                try:
                    self.deals.add(suits, number)
                except OSError:
                    cancel.wait(30)  # the data dir can't be written: try much later


class Question(SolverRun[tuple[Solution, float]]):
    """"Could this still be won?" about one position, asked in a background thread that waits
    for a child process (``spider_tui.search.solve``; a cancel kills it).

    ``on_answer(solution, seconds)`` is called from that thread when the solver is done (not
    after ``cancel()``); the caller hands it to its UI thread."""

    def __init__(self, game: Game, on_answer: Callable[[Solution, float], None],
                 seconds: float = QUESTION_SECONDS):
        self.game = game.copy()  # the table stays live: the question has its own position
        self.on_answer = on_answer
        self.seconds = seconds
        super().__init__(self._ask, lambda answer: on_answer(*answer), name="spider-question")

    def _ask(self, cancel: threading.Event) -> tuple[Solution, float]:
        from spider_tui import search

        start = time.monotonic()
        try:
            found = search.solve(self.game, self.seconds, cancel)
        except search.SearchFailed:
            found = Solution(UNKNOWN)  # the child died (out of memory, say): no answer
        return found or Solution(UNKNOWN), time.monotonic() - start


class Answer:
    """The solver's answer about one position, and every position it still speaks of: the one
    asked about and, after a "yes", each position along the solution (SPEC §14).  It belongs to
    those positions only: after any other move ``text`` is None (an undo back brings it again)."""

    def __init__(self, asked: Game, found: Solution, seconds: float):
        self.found, self.seconds = found, seconds
        self.moves = list(found.moves or []) if found.result == WINNABLE else []
        self.steps: dict[tuple, int] = {asked.key(): 0}
        g = asked.copy()
        for i, move in enumerate(self.moves):
            g.play(move)
            self.steps.setdefault(g.key(), i + 1)

    def step(self, game: Game) -> int | None:
        """How far along the solution ``game`` stands (0: the position asked about), or None."""
        return self.steps.get(game.key())

    def next_move(self, game: Game) -> str | None:
        """The solution's next move from ``game``'s position, when the answer speaks of it."""
        i = self.step(game)
        return self.moves[i] if i is not None and i < len(self.moves) else None

    def text(self, game: Game, key: str = "w") -> str | None:
        """The answer as the status line says it about ``game``'s position (None: another one)."""
        i = self.step(game)
        if i is None:
            return None
        if self.moves:
            n = len(self.moves) - i
            if n == 0:
                return None
            return ngettext("Yes: this position can still be won, in {n} more move. {key}: show the solver's next move.",
                            "Yes: this position can still be won, in {n} more moves. {key}: show the solver's next move.",
                            n).format(n=n, key=key)
        return answer_text(self.found, self.seconds)


def answer_text(found: Solution, seconds: float, limit: float = QUESTION_SECONDS) -> str:
    """What the player reads about a Question's answer (plain text, no markup)."""
    peek = _("The solver looked at the face-down cards and the stock.")
    if found.result == WINNABLE:
        n = len(found.moves or [])
        return ngettext("Yes: this position can still be won, in {n} more move.",
                        "Yes: this position can still be won, in {n} more moves.", n).format(n=n) + " " + peek
    if found.result == "not winnable":
        return _("No: this position can't be won any more, whatever you play.") + " " + peek
    return _("No answer: the solver found no win in {limit:g} s (that doesn't mean there is none).").format(
        limit=limit) + " " + peek


__all__ = [
    "Answer", "ProvedDeals", "Prover", "Question", "SolverRun", "proves_winnable", "prove_now", "answer_text",
    "CACHE_NAME", "AHEAD",
]
