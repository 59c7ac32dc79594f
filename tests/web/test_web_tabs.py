"""Tabs of ``spider web`` over its websocket (no browser): each tab its own app, one save file,
nothing lost when a tab closes or the server stops (like two SSH logins, SPEC §8)."""

from __future__ import annotations

import asyncio
import signal
import tomllib

import aiohttp
import pytest

from .conftest import start_server
from .screen import column_key, deal_on_screen, first_card_move
from .tabs import Tab


async def play_one_move(tab: Tab) -> tuple[int, int]:
    """New game on the start screen, then one legal move: a card move by column keys, or, in the
    rare deal whose ten cards have no move between them, a deal from the stock (always legal at
    the start: no column is empty). Returns (deal, moves)."""
    await tab.wait_for("New game")
    await tab.press("n")
    lines = await tab.wait_for("Moves: 0")
    game = deal_on_screen(lines)
    move = first_card_move(game)
    if move is None:
        await tab.press("d")
    else:
        await tab.press(column_key(move.source + 1), column_key(move.target + 1))
    await tab.wait_for("Moves: 1")
    return game.deal_number, 1


def saved_rounds(data_dir) -> dict:
    path = data_dir / "save.toml"
    if not path.exists():
        return {}
    with open(path, "rb") as f:
        return tomllib.load(f).get("rounds", {})


async def wait_for_rounds(data_dir, n: int, timeout: float = 30.0) -> dict:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while len(rounds := saved_rounds(data_dir)) < n and loop.time() < end:
        await asyncio.sleep(0.1)
    return rounds


async def test_two_tabs_each_play_their_own_round_on_one_save_file(tmp_path):
    data_dir = tmp_path / "my data 'dir' $(x)"  # quoting: the tabs must write exactly here
    server = start_server(data_dir)
    try:
        async with aiohttp.ClientSession() as session:
            one = await Tab(session, server.url).open()
            two = await Tab(session, server.url).open()
            played = {await play_one_move(one), await play_one_move(two)}
            await one.close()
            await two.close()
            rounds = await wait_for_rounds(data_dir, 2)
    finally:
        assert server.stop() == 0
    assert {(r["deal"], r["moves"]) for r in rounds.values()} == played
    assert len(rounds) == 2  # two tabs, two rounds: neither overwrote the other


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
async def test_stopping_with_a_tab_open_stops_the_server_and_keeps_the_round(tmp_path, how):
    server = start_server(tmp_path / "data")
    async with aiohttp.ClientSession() as session:
        tab = await Tab(session, server.url).open()
        deal, moves = await play_one_move(tab)
        if how == "ctrl-c":
            # SIGINT to the server and the tabs' apps, as a terminal sends it (waited for in a
            # thread: this tab keeps answering the server's closing handshake meanwhile)
            assert await asyncio.to_thread(server.stop) == 0
        else:
            server.process.send_signal(signal.SIGTERM)  # the server alone: it tells the tabs to quit
            assert await asyncio.to_thread(server.process.wait, 30) == 0
        await tab.closed.wait()  # the page's connection ends with the server
    rounds = saved_rounds(tmp_path / "data")
    assert [(r["deal"], r["moves"]) for r in rounds.values()] == [(deal, moves)]
    out = server.output()
    assert "Traceback" not in out and "Error" not in out, out
