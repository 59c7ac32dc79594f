"""A two-player Palast table played to its end by the headless client, printing the messages
(abridged: positions shortened, runs of plays and progress events elided).

    python bench/palast_table.py [--rounds N] [--full]

Starts a real server on a free loopback port with a temporary SQLite database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time

from spider_tui.engine import Game
from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.server import PalastServer
from spider_tui.palast.server.table import Options


def abridge(msg: dict) -> str:
    m = dict(msg)
    if "position" in m:
        lines = m["position"].splitlines()
        m["position"] = " / ".join(lines[:4] + ["…"] + lines[-1:])
    if m.get("type") == "hello" or "token" in m and m["token"]:
        m["token"] = (m.get("token") or "")[:6] + "…" if m.get("token") else m.get("token")
    return json.dumps(m, ensure_ascii=False)


async def main(rounds: int, full: bool) -> None:
    log: list[tuple[str, str, dict]] = []
    server = PalastServer(open_store(None, tempfile.mkdtemp()), port=0,
                          options=Options(between_seconds=30), rate=1000, burst=1000)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}"

    class Logged(PalastClient):
        """A client that keeps the whole exchange, both ways, in order."""

        transcript: list[tuple[str, dict]]

        async def request(self, type, check=True, timeout=30, **fields):
            self.transcript.append(("->", {"type": type, **fields}))
            return await super().request(type, check, timeout, **fields)

    class Incoming(list):
        def __init__(self, transcript):
            super().__init__()
            self.transcript = transcript

        def append(self, m):
            super().append(m)
            self.transcript.append(("<-", m))

    anna = await Logged.connect(url)
    bo = await Logged.connect(url)
    for c, name in ((anna, "Anna"), (bo, "Bo")):
        c.transcript = []
        c.received = Incoming(c.transcript)
        c.keep_received = True
        await c.hello(name, None)
    t = (await anna.open(suits=1, rules="classic", rounds=rounds, seats=2, private=False))["table"]
    await bo.join(table=t["id"])
    await anna.start()

    async def play(c: Logged) -> dict:
        while True:
            ev = await c.next_event(timeout=60)
            if ev["type"] == "round":
                view = Game.from_text(ev["position"])
                while True:
                    m = view.hint()
                    ans = await c.play(str(m) if m else "give up")
                    view = Game.from_text(ans["position"])
                    if ans["state"] != "playing":
                        break
            elif ev["type"] == "round_over" and ev["round"] < rounds:
                await c.ready()
            elif ev["type"] == "table_over":
                return ev

    t0 = time.perf_counter()
    await asyncio.gather(play(anna), play(bo))
    took = time.perf_counter() - t0
    # Print the exchange; inside each stretch of plays and progress keep the first and last few.
    items = anna.transcript
    busy = [m["type"] in ("play", "played", "progress") for _, m in items]
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and busy[j]:
            j += 1
        block = items[i:j] if j > i else items[i:i + 1]
        keep = block if full or len(block) <= 10 else block[:6] + [None] + block[-4:]
        for entry in keep:
            if entry is None:
                print(f"     … {len(block) - 10} more plays and progress events")
            else:
                print(f"Anna {entry[0]} {abridge(entry[1])}")
        i = j if j > i else i + 1
    sent = [m for d, m in anna.transcript if d == "->"]
    plays = sum(m["type"] == "played" for m in anna.received)
    print(f"\nAnna sent {len(sent)} requests ({plays} plays); table of {rounds} round(s) played in {took:.1f} s")
    await anna.close()
    await bo.close()
    await server.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--full", action="store_true")
    a = ap.parse_args()
    asyncio.run(main(a.rounds, a.full))
