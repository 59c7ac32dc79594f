"""The child process of ``spider_tui.search``: one request line in, one answer line out, exit.

Reads a JSON object from stdin (at most 1 MB), runs the search it names and writes its answer
as one JSON line.  Its memory goes back to the system when it exits, which is the point.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

MAX_REQUEST = 1 << 20


class ParentGone:
    """Set once the app that asked is gone (this process was handed to another parent): the
    search stops then, it has no one to answer.  Looks like a ``threading.Event`` to the prover."""

    def __init__(self) -> None:
        self.parent = os.getppid()

    def is_set(self) -> bool:
        return os.getppid() != self.parent


GONE = ParentGone()


def answer(request: dict[str, Any]) -> dict[str, Any]:
    job = request.get("job")
    seconds = request.get("seconds")
    if not isinstance(seconds, (int, float)) or not 0 < seconds <= 3600:
        raise ValueError("seconds")
    if job == "solve":
        from spider_tui.engine import Game
        from spider_tui.engine.solve import solve

        position = request.get("position")
        if not isinstance(position, str):
            raise ValueError("position")
        game = Game.from_text(position)
        deadline = time.monotonic() + seconds
        found = solve(game, stop=lambda: time.monotonic() >= deadline or GONE.is_set())
        return {"result": found.result, "moves": found.moves, "nodes": found.nodes,
                "exhaustive": found.exhaustive}
    from spider_tui.engine import MAX_DEAL, MIN_DEAL
    from spider_tui.winnable import SUIT_COUNTS

    suits = request.get("suits")
    if suits not in SUIT_COUNTS or type(suits) is not int:
        raise ValueError("suits")
    if job == "prove":
        from spider_tui.winnable import proves_winnable

        number = request.get("number")
        if type(number) is not int or not MIN_DEAL <= number <= MAX_DEAL:
            raise ValueError("number")
        return {"winnable": proves_winnable(number, suits, float(seconds), GONE)}  # type: ignore[arg-type]
    if job == "find":
        import random

        from spider_tui.winnable import prove_now

        seed, tries = request.get("seed"), request.get("tries")
        if not isinstance(seed, (int, float)) or type(tries) is not int or not 0 < tries <= 1000:
            raise ValueError("seed or tries")
        return {"number": prove_now(suits, random.Random(seed), GONE, tries, float(seconds))}  # type: ignore[arg-type]
    raise ValueError("job")


def main() -> int:
    raw = sys.stdin.buffer.read(MAX_REQUEST + 1)
    try:
        if len(raw) > MAX_REQUEST:
            raise ValueError("too long")
        request = json.loads(raw)
        if not isinstance(request, dict):
            raise ValueError("not an object")
        out = answer(request)
    except (ValueError, KeyError, TypeError) as e:
        sys.stdout.write(json.dumps({"error": str(e)}) + "\n")
        return 2
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
