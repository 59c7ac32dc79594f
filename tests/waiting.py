"""Waiting helpers written once for the suite: poll until something holds, stop a server process.

No fixed sleeps: a test waits for what it expects, with a generous timeout (the machine may be
busy), and fails saying what it waited for.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Awaitable, Callable


async def until(pred: Callable[[], object], timeout: float = 30.0, *, pilot=None, what: str = "waiting") -> None:
    """Wait (polling) until ``pred()`` holds; with ``pilot`` the app runs between the polls."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    pause: Callable[[], Awaitable[object]] = (
        (lambda: pilot.pause(0.02)) if pilot is not None else (lambda: asyncio.sleep(0.01))
    )
    while not _holds(pred, pilot is not None):
        if loop.time() > end:
            if pilot is not None:
                pred()  # a widget still missing says so itself (NoMatches), at the end
            raise AssertionError(f"timed out {what}")
        await pause()


def _holds(pred: Callable[[], object], screen: bool) -> bool:
    """``pred()``; on a screen, a widget it asks for that isn't mounted yet (a screen just pushed
    composes a moment later, more so on a busy machine) means "not yet", not a failure."""
    if not screen:
        return bool(pred())
    from textual.css.query import NoMatches

    try:
        return bool(pred())
    except NoMatches:
        return False


def stop_process(proc: subprocess.Popen, timeout: float = 10.0) -> int:
    """Stop a server process (SIGTERM, then SIGKILL if it does not end in ``timeout`` seconds),
    close its pipes and return its exit status."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    return proc.returncode


async def until_app(pilot, pred: Callable[[], object], timeout: float = 30.0) -> None:
    """Let a Pilot-driven app run until ``pred()`` holds (generous timeout, no fixed sleeps)."""
    await until(pred, timeout, pilot=pilot, what="waiting for the screen")
