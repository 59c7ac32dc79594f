"""Searches in a child process (SPEC §11: what a search allocates is given back when it ends).

The solver's tables (its transposition tables and beams) grow to tens of MB in a 4-suit
search, and CPython keeps most of that memory in its arenas after the search.  So every search
of the app (a "could this still be won?" question, a winnable-deal proof, the search for a
winnable deal when none is ready) runs in a child process of its own: when it ends, the child
exits and the system gets all of it back.  It also keeps a long proof off the UI's GIL.

The child is a fresh interpreter (``python -m spider_tui.search_child``), not a fork: the app
is a Textual app with threads, and forking a threaded process is unsafe.  It costs one
interpreter start and the engine's imports (about 40-80 ms, ``bench/search.py`` measures it)
against searches of seconds.  Nothing stays behind: no server process, and the thread that
waits for the child ends with it.  A child stops when the app exits (killed at exit, and it
stops by itself once its parent is gone).

The one API (the app, the records' review, anything that asks the solver while a UI runs)::

    solve(game, seconds, cancel) -> Solution | None      # None: cancelled
    proves(number, suits, seconds, cancel) -> bool
    find_winnable(suits, seed, tries, cancel) -> int | None

Each call blocks its (worker) thread until the child answers; ``cancel`` (a
``threading.Event``) kills the child and its work at once.  The request and the answer are one
JSON line each way (the position as SPEC §3 notation).  When no child can be started
(``sys.executable`` missing, say) the search runs in this process instead.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spider_tui.engine import Game
    from spider_tui.engine.solve import Solution

#: How long past its own time limit a child may take before it is killed (it stops itself).
GRACE_SECONDS = 30.0
#: The most an answer line may hold (a solution is a few KB).
MAX_ANSWER = 1 << 20
_POLL = 0.1  # how often a waiting thread looks at ``cancel``

_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)
_live: set[subprocess.Popen] = set()  # children searching now: killed when the app exits
_live_lock = threading.Lock()


@atexit.register
def _kill_live() -> None:
    with _live_lock:
        for proc in list(_live):
            if proc.poll() is None:
                proc.kill()


class SearchFailed(RuntimeError):
    """The child died or answered nonsense (out of memory, killed from outside)."""


def _command() -> list[str]:
    return [sys.executable, "-P", "-m", "spider_tui.search_child"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = _PACKAGE_ROOT + (os.pathsep + path if path else "")
    return env


def run(request: dict[str, Any], cancel: threading.Event | None = None,
        limit: float | None = None) -> dict[str, Any] | None:
    """Run one request in a new child and return its answer, or None after ``cancel``.

    Raises ``OSError`` when no child can be started and :class:`SearchFailed` when it ends
    without an answer.  ``limit``: seconds after which the child is killed (its own time limit
    plus :data:`GRACE_SECONDS`)."""
    if not sys.executable:
        raise OSError("no Python interpreter to start a search with")
    proc = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_env(), close_fds=True,
                            start_new_session=True)  # a Ctrl+C at the terminal is the app's
    assert proc.stdin is not None and proc.stdout is not None
    with _live_lock:
        _live.add(proc)
    try:
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.close()
        except OSError:
            pass  # it died at once: seen as no answer below
        out = bytearray()
        fd = proc.stdout.fileno()
        waited = 0.0
        while True:
            if cancel is not None and cancel.is_set():
                return None
            if limit is not None and waited > limit:
                raise SearchFailed("the search took far longer than its time limit")
            ready, _, _ = select.select([fd], [], [], _POLL)
            if not ready:
                waited += _POLL
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
            if len(out) > MAX_ANSWER:
                raise SearchFailed("the search's answer is too long")
        try:
            answer = json.loads(out.decode())
        except (UnicodeDecodeError, ValueError):
            raise SearchFailed("the search ended without an answer") from None
        if not isinstance(answer, dict):
            raise SearchFailed("the search's answer is not an object")
        return answer
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
        with _live_lock:
            _live.discard(proc)


def _solution(answer: dict[str, Any]) -> "Solution":
    from spider_tui.engine.solve import NOT_WINNABLE, UNKNOWN, WINNABLE, Solution

    result = answer.get("result")
    moves = answer.get("moves")
    nodes = answer.get("nodes")
    if result not in (WINNABLE, NOT_WINNABLE, UNKNOWN):
        raise SearchFailed("the search's answer has no result")
    if moves is not None and not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
        raise SearchFailed("the search's moves are not a list of moves")
    return Solution(result, moves, nodes if type(nodes) is int else 0, bool(answer.get("exhaustive")))


def solve(game: "Game", seconds: float, cancel: threading.Event | None = None) -> "Solution | None":
    """The solver's answer about ``game`` (searched for at most ``seconds`` of wall time in the
    child), or None after ``cancel``.  A win it names is checked here by playing it."""
    request = {"job": "solve", "position": game.to_text(), "seconds": seconds}
    try:
        answer = run(request, cancel, seconds + GRACE_SECONDS)
    except OSError:
        return _solve_here(game, seconds, cancel)
    if answer is None:
        return None
    found = _solution(answer)
    if found.result == "winnable" and not _wins(game, found.moves or []):
        raise SearchFailed("the search's win doesn't win")
    return found


def proves(number: int, suits: int, seconds: float, cancel: threading.Event | None = None) -> bool:
    """Whether deal ``number`` is proved winnable (``winnable.proves_winnable`` in a child)."""
    request = {"job": "prove", "number": number, "suits": suits, "seconds": seconds}
    try:
        answer = run(request, cancel, seconds * 3 + GRACE_SECONDS)  # CPU time there, wall time here
    except OSError:
        from spider_tui.winnable import proves_winnable

        return proves_winnable(number, suits, seconds, cancel)
    return answer is not None and answer.get("winnable") is True


def find_winnable(suits: int, seed: float, tries: int, seconds: float,
                  cancel: threading.Event | None = None) -> int | None:
    """A deal number proved winnable at ``suits`` (random numbers from ``seed``, at most
    ``tries`` of ``seconds`` each), or None."""
    request = {"job": "find", "suits": suits, "seed": seed, "tries": tries, "seconds": seconds}
    try:
        answer = run(request, cancel, tries * (seconds * 3) + GRACE_SECONDS)
    except OSError:
        import random

        from spider_tui.winnable import prove_now

        return prove_now(suits, random.Random(seed), cancel, tries, seconds)
    if answer is None:
        return None
    number = answer.get("number")
    from spider_tui.engine import MAX_DEAL, MIN_DEAL

    if type(number) is int and MIN_DEAL <= number <= MAX_DEAL:
        return number
    return None


def _wins(game: "Game", moves: list[str]) -> bool:
    g = game.copy()
    try:
        for m in moves:
            g.play(m)
    except Exception:  # any move the engine refuses: the answer is not a win
        return False
    return g.won


def _solve_here(game: "Game", seconds: float, cancel: threading.Event | None) -> "Solution | None":
    import time

    from spider_tui.engine.solve import solve as solve_here

    deadline = time.monotonic() + seconds
    found = solve_here(game.copy(), stop=lambda: (cancel is not None and cancel.is_set())
                       or time.monotonic() >= deadline)
    return None if cancel is not None and cancel.is_set() else found


__all__ = ["GRACE_SECONDS", "SearchFailed", "find_winnable", "proves", "run", "solve"]
