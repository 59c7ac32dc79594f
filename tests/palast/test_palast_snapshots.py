"""Snapshots of the Palast screens against a real server (a thread of its own, a fixed deal and
port, the countdown's clock fixed): the lobby, a race at 80×24 and 120×40, the round standings.

Update after an intended change of the look: ``pytest tests/palast/test_palast_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import random
from datetime import date

import pytest

from spider_tui.palast.client.client import PalastClient
from spider_tui.store import SaveFile
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.palast import lines
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui.palast.race import RaceScreen
from spider_tui.ui_launch import Launch

from tests.waiting import until_app as until

from .helpers import play_round
from .threaded import ThreadedPalast

PORT = 18713  # the address the screens show: the server listens on a free port (several runs at once)


@pytest.fixture
def server(tmp_path):
    p = ThreadedPalast(tmp_path / "server")
    yield p
    p.stop()


@pytest.fixture
def app(tmp_path, monkeypatch, server):
    monkeypatch.setenv("SPIDER_DATA_DIR", str(tmp_path / "data"))
    shown = lines.name  # the lobby's heading names the server: with the same port in every run
    monkeypatch.setattr(lines, "name", lambda text, width: shown(
        text.replace(f"127.0.0.1:{server.server.port}", f"127.0.0.1:{PORT}"), width))
    return SpiderApp(SaveFile(tmp_path / "data" / "save.toml"), Launch(server=server.url),
                     today=lambda: date(2026, 11, 29), rng=random.Random(5))


async def to_lobby(pilot) -> PalastScreen:
    app = pilot.app
    await until(pilot, lambda: app.screen.query("#c-name"))
    await pilot.click("#c-name")
    await pilot.press("A", "n", "n", "a", "enter")
    await until(pilot, lambda: isinstance(app.screen, PalastScreen) and app.screen.session.tables)
    return app.screen


async def to_race(pilot, bot_moves: int | None = None) -> tuple[PalastScreen, PalastClient, dict]:
    """Anna opens a 1-round 2-seat table, Bo (a headless client) joins, Anna starts; Bo plays."""
    app = pilot.app
    lobby = await to_lobby(pilot)
    s = lobby.session
    s.now = lambda: (s.race.ends_at - 83.4) if s.race is not None else 0.0  # 1:24 left, always
    await s.open(rounds=2, seats=2)
    bo = await PalastClient.connect(s.url)
    await bo.hello("Bo", None)
    await bo.join(table=s.table.id)
    await until(pilot, lambda: len(s.table.players) == 2)
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, RaceScreen))
    ev = await bo.wait_for("round")
    if bot_moves:
        last = await play_round(bo, ev["position"], limit=bot_moves)
        await until(pilot, lambda: s.opponents["Bo"].state == last["state"])
    return lobby, bo, ev


@pytest.mark.parametrize("size", [(80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_lobby(snap_compare, app, size):
    async def run_before(pilot):
        lobby = await to_lobby(pilot)
        bo = await PalastClient.connect(lobby.session.url)
        await bo.hello("Bo", None)
        await bo.open(suits=2, rules="joker+fast", rounds=5, seats=3)
        await lobby.session.refresh()
        await until(pilot, lambda: len(lobby.session.tables) == 2)
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_race(snap_compare, app, size):
    async def run_before(pilot):
        lobby, bo, _ = await to_race(pilot)
        s = lobby.session
        await bo.play(str(s.race.game.hint()))
        await until(pilot, lambda: s.opponents["Bo"].moves == 1)
        hint = s.race.game.hint()
        await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
        await until(pilot, lambda: not s._pending)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=size)


def test_standings(snap_compare, app):
    async def run_before(pilot):
        lobby, bo, _ = await to_race(pilot, bot_moves=4)
        s = lobby.session
        await pilot.press("g", "y")
        await until(pilot, lambda: pilot.app.screen is lobby and s.phase == "standings")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
