"""The review, "Where did I lose it?" (SPEC §16): the solver walks the player's own line back.

Plain logic, run in a background thread by the UI.  What it relies on (``docs/records.md``): a
position that can't be won stays unwinnable after any move, so along a line of moves the
positions run winnable … winnable, unwinnable … unwinnable, and a binary search finds the last
winnable one.  Undo is the one action that goes back, so the line is the moves still on the
table at the end (undone ones taken out); position k is the one after k of them.

Every solver question goes through :func:`ask` (the one place; it runs the search in a child
process), under a budget for the whole review (60 s by default), counted in wall time, which is
never less than the CPU time the (single-threaded) search used: so at most 60 s of CPU in all.  An answer the
solver can't give in its share is ``unknown``; the verdict then says what is known, not more.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from spider_tui.engine import Game
from spider_tui.engine.solve import NOT_WINNABLE, UNKNOWN, WINNABLE, Solution, supported
from spider_tui.i18n import _
from spider_tui.records import Record, start

BUDGET = 60.0  #: CPU seconds for a whole review
MIN_SHARE = 2.0  #: a question gets at least this much of what is left


@dataclass(frozen=True)
class Verdict:
    """The review's answer.

    ``kind``: ``"lost"`` (winnable after move ``move``, the next move ``losing`` lost it),
    ``"never"`` (the deal could not be won from the start), ``"still"`` (still winnable at the
    end), ``"won"``, ``"unknown"`` (the solver couldn't decide; ``move`` is then the last move
    known winnable, if any) or ``"unsupported"`` (rules the solver doesn't play).
    ``step`` is the replay step to open; ``way`` the solver's moves from position ``move``."""

    kind: str
    text: str
    step: int = 0
    move: int | None = None
    losing: str | None = None
    way: tuple[str, ...] = ()


def line_of(record: Record) -> list[tuple[int, str]]:
    """The moves still on the table at the end, each with the index of the action that played it
    (undone moves taken out)."""
    stack: list[tuple[int, str]] = []
    for i, (_ms, move) in enumerate(record.actions):
        if move == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((i, move))
    return stack


def ask(game: Game, seconds: float, cancel: threading.Event | None = None) -> Solution:
    """The solver's answer for ``game`` within ``seconds`` (in a child process: ``search.solve``,
    so what the search allocates goes back when it ends); ``unknown`` when it was cancelled or
    the search failed."""
    from spider_tui import search

    try:
        found = search.solve(game, seconds, cancel)
    except search.SearchFailed:
        return Solution(UNKNOWN)
    return found if found is not None else Solution(UNKNOWN)


def ask_here(game: Game, seconds: float, cancel: threading.Event | None = None) -> Solution:
    """:func:`ask` in this thread, bounded by this thread's CPU time (not wall time): the same
    answer on a loaded machine as on an idle one (the tests use it)."""
    from spider_tui.engine.solve import solve

    began = time.thread_time()

    def stop() -> bool:
        return (cancel is not None and cancel.is_set()) or time.thread_time() - began > seconds

    return solve(game.copy(), stop=stop)


Ask = Callable[[Game, float, "threading.Event | None"], Solution]


def review(record: Record, *, budget: float = BUDGET, cancel: threading.Event | None = None,
           progress: Callable[[str], None] | None = None, asker: Ask = ask) -> Verdict:
    """Walk ``record``'s line back with the solver (see the module doc)."""
    if record.won:
        return Verdict("won", _("This round was won: nothing was lost."), len(record.actions))
    line = line_of(record)
    first = start(record)
    why = supported(first)
    if why:
        return Verdict("unsupported", _("The review can't look at this round: {why}.").format(why=why))
    games = [first.copy()]
    g = first
    for _i, move in line:
        g.play(move)
        games.append(g.copy())
    n = len(line)
    used = [0.0]
    asked = [0]
    expected = 2 + max(1, math.ceil(math.log2(max(2, n))))
    cache: dict[int, Solution] = {}

    def question(k: int) -> Solution:
        if k in cache:
            return cache[k]
        left = budget - used[0]
        if left <= 0.05 or (cancel is not None and cancel.is_set()):
            return Solution(UNKNOWN)
        share = min(left, max(min(MIN_SHARE, budget / 4), left / max(1, expected - asked[0])))
        asked[0] += 1
        if progress is not None:
            progress(_("Where did I lose it? Asking the solver about move {k} ({i} of about {n} questions)…")
                     .format(k=k, i=asked[0], n=expected))
        began, cpu = time.monotonic(), time.thread_time()
        found = asker(games[k], share, cancel)
        # wall time, never less than the CPU a one-thread search used (in a child or here); on
        # this thread, its CPU time (a loaded machine then gets the same answers)
        used[0] += (time.thread_time() - cpu) if asker is ask_here else (time.monotonic() - began)
        cache[k] = found
        return found

    def step_before(k: int) -> int:
        """The replay step where the player stood at line position k before playing move k+1."""
        return line[k][0] if k < n else len(record.actions)

    end = question(n)
    if end.result == WINNABLE:
        return Verdict("still", _("Still winnable at the end (after move {k}). The solver's way: {way}")
                       .format(k=n, way=way_text(end.moves)), step_before(n), n, None, tuple(end.moves or ()))
    begin = question(0)
    if begin.result == NOT_WINNABLE:
        return Verdict("never", _("This deal could not be won from the start: nothing you did lost it."), 0, None)
    if begin.result != WINNABLE:
        return Verdict("unknown", _("The solver couldn't decide whether the deal could be won at all."), 0)
    lo, hi = 0, n  # lo: known winnable; hi: known (or taken as) not winnable
    lo_way = begin.moves or []
    hi_known = end.result == NOT_WINNABLE
    while hi - lo > 1:
        mid = (lo + hi) // 2
        found = question(mid)
        if found.result == WINNABLE:
            lo, lo_way = mid, found.moves or []
        else:  # not winnable, or unknown: taken as the upper end, known or not
            hi, hi_known = mid, found.result == NOT_WINNABLE
    losing = line[lo][1]
    if not hi_known:
        return Verdict("unknown", _("Still winnable after move {lo}; about move {next} `{move}` the solver couldn't "
                                    "decide (no win found in its time). The solver's way from move {lo}: {way}")
                       .format(lo=lo, next=lo + 1, move=losing, way=way_text(lo_way)),
                       step_before(lo), lo, losing, tuple(lo_way))
    return Verdict("lost", _("Still winnable after move {lo}; {next} `{move}` lost it. The solver's way from move "
                             "{lo}: {way}").format(lo=lo, next=lo + 1, move=losing, way=way_text(lo_way)),
                   step_before(lo), lo, losing, tuple(lo_way))


def way_text(moves: list[str] | None, most: int = 24) -> str:
    """The solver's way, shortened for a status line: ``5>2:1 deal 3>9:4 … (87 moves)``."""
    moves = list(moves or [])
    shown = " ".join(moves[:most])
    if len(moves) > most:
        shown += " " + _("… ({n} moves)").format(n=len(moves))
    return shown
