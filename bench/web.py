"""``spider web`` by the numbers: ``python bench/web.py [--tabs N]``.

Starts the real server (``python -m spider_tui web --port 0``) with a new temporary data dir,
opens N tabs over textual-serve's websocket (the browser's protocol; the screen kept by pyte),
and prints: time from the websocket's opening to the start screen's first frame, bytes that
frame took, the memory (RSS) of the server and of each tab's app process, and the time from
Ctrl+C (SIGINT to the process group, as a terminal sends it) to the server's exit.
Figures of one run on a shared machine: read them as sizes, not as budgets.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import pyte


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


async def open_tab(session: aiohttp.ClientSession, url: str) -> tuple[aiohttp.ClientWebSocketResponse, float, int]:
    screen = pyte.Screen(100, 30)
    stream = pyte.ByteStream(screen)
    start = time.perf_counter()
    ws = await session.ws_connect(url.replace("http://", "ws://") + "ws?width=100&height=30")
    await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
    received = 0
    while "New game" not in "\n".join(screen.display):
        message = await ws.receive(timeout=60)
        if message.type == aiohttp.WSMsgType.BINARY:
            received += len(message.data)
            stream.feed(message.data)
    return ws, time.perf_counter() - start, received


async def drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass


async def main(tabs: int) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        server = subprocess.Popen([sys.executable, "-m", "spider_tui", "web", "--port", "0", "--data-dir", data_dir],
                                  stdout=subprocess.PIPE, text=True, start_new_session=True)
        url = re.search(r"http://\S+", server.stdout.readline()).group(0)
        async with aiohttp.ClientSession() as session:
            opened = [await open_tab(session, url) for _ in range(tabs)]
            # Keep reading, as a page does: a tab answers the server's closing handshake.
            readers = [asyncio.create_task(drain(ws)) for ws, _, _ in opened]
            await asyncio.sleep(1.0)
            apps = children(server.pid)
            print(f"tabs: {tabs}")
            print(f"first frame of the start screen: median {statistics.median(t for _, t, _ in opened) * 1000:.0f} ms, "
                  f"{statistics.median(b for _, _, b in opened) / 1024:.1f} KB")
            print(f"RSS: server {rss_mb(server.pid):.0f} MB; each tab's app "
                  + ", ".join(f"{rss_mb(p):.0f}" for p in apps) + " MB")
            start = time.perf_counter()
            os.killpg(server.pid, signal.SIGINT)
            status = await asyncio.to_thread(server.wait, 60)
            await asyncio.gather(*readers)
            print(f"Ctrl+C to exit: {(time.perf_counter() - start) * 1000:.0f} ms (status {status})")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tabs", type=int, default=3)
    asyncio.run(main(p.parse_args().tabs))
