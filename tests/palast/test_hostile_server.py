"""A hostile server against the client (issue 20 item 11, SPEC §13 Fair play): every text it
sends reaches the screen through ``safe_text.visible`` (no escape sets the terminal's title), and
no value it sends crashes the app.  The server is a tiny ``websockets`` server in the test, on
127.0.0.1, that says whatever the test tells it to."""

from __future__ import annotations

import asyncio
import json
import unicodedata

import pytest
from websockets.asyncio.server import serve

from spider_tui.engine import Game
from spider_tui.ui.palast import lines
from spider_tui.palast.client.session import PalastError, PalastSession
from spider_tui.palast.messages import TableInfo

TITLE = "\x1b]0;PWNED\x07"
CSI = "\x1b[2J\x9b31m"


def clean_text(text: str) -> bool:
    """Nothing a terminal would act on: no C0/C1 control but a newline, no lone surrogate."""
    return not any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\n" for ch in text)


class Hostile:
    """Answers ``hello`` with ``welcome``, then sends ``script`` (each item a dict, or raw text);
    ``answer(request)`` makes the answer to each later request."""

    def __init__(self, script: list, answer=None, hello_error: str | None = None):
        self.script, self.answer, self.hello_error = script, answer, hello_error
        self.url = ""

    async def handler(self, ws) -> None:
        hello = json.loads(await ws.recv())
        if self.hello_error is not None:
            await ws.send(json.dumps({"type": "error", "reason": self.hello_error, "id": hello.get("id")}))
            await ws.close()
            return
        await ws.send(json.dumps({"type": "welcome", "name": hello["name"], "token": "t" * 40, "id": hello.get("id")}))
        for item in self.script:
            await ws.send(item if isinstance(item, (str, bytes)) else json.dumps(item))
        async for data in ws:
            req = json.loads(data)
            ans = self.answer(req) if self.answer else {"type": "refused", "reason": TITLE}
            if isinstance(ans, dict):
                ans = {**ans, "id": req.get("id")}
                await ws.send(json.dumps(ans))
            else:
                await ws.send(ans)


@pytest.fixture
async def hostile():
    servers = []
    sessions: list[PalastSession] = []

    async def make(script: list, answer=None, hello_error: str | None = None) -> tuple[Hostile, PalastSession]:
        h = Hostile(script, answer, hello_error)
        server = await serve(h.handler, "127.0.0.1", 0)
        servers.append(server)
        h.url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        s = PalastSession(h.url, "Victim")
        sessions.append(s)
        await s.start()
        return h, s

    yield make
    for s in sessions:
        await s.close()
    for server in servers:
        server.close()
        await server.wait_closed()


async def settle(s: PalastSession, pred, timeout: float = 10) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out; status {s.status!r}")
        await asyncio.sleep(0.01)


def table(**kw) -> dict:
    base = {"id": 7, "host": f"Host{TITLE}", "suits": 1, "rules": f"classic{CSI}", "rounds": 3, "round": 0,
            "seats": 4, "players": [f"Host{TITLE}", "Victim"], "state": f"waiting{CSI}", "private": False,
            "training": False}
    base.update(kw)
    return base


def screen_text(s: PalastSession) -> str:
    """Every line the lobby, waiting, standings, final and race screens would show."""
    out = [s.status, lines.lobby_row(TableInfo.from_json(table()))]
    out += [lines.lobby_row(t) for t in s.tables]
    out += [lines.league_row(i, p) for i, p in enumerate(s.league, 1)]
    if s.table:
        out.append(repr(s.table))
        out += [lines.name(p, 16) for p in s.table.players]
    out += [lines.opponent_line(p) for p in s.opponents.values()]
    if s.standings:
        out += [lines.standings_row(r) for r in s.standings.standings]
        out.append(f"Round {s.standings.round}")
    out += [lines.ranking_row(r) for r in s.ranking or []]
    out += [f"deal {d}" for _r, d in s.deals]
    if s.race is not None:
        out.append(s.race.status)
    return "\n".join(str(x) for x in out)


async def test_a_refusal_reason_in_the_lobby_cannot_set_the_title(hostile):
    _h, s = await hostile([], answer=lambda req: {"type": "refused", "reason": f"No{TITLE}{CSI}"})
    await s.join(table=1)
    assert "PWNED" in s.status and clean_text(s.status)
    assert "\\x1b" in s.status  # shown, not acted on


async def test_a_refused_move_at_the_race_cannot_set_the_title(hostile):
    position = Game.new(1, suits=1).view()
    script = [{"type": "joined", "table": table(state="playing"), "code": None},
              {"type": "round", "table": 7, "round": 1, "position": position, "ends_at": 4e9}]
    _h, s = await hostile(script, answer=lambda req: {"type": "refused", "reason": f"Nope{TITLE}"})
    await settle(s, lambda: s.race is not None)
    hint = s.race.game.hint()
    assert hint is not None
    s.race.play(hint)
    await settle(s, lambda: "Nope" in (s.race.status or ""))
    assert clean_text(s.race.status) and "PWNED" in s.race.status


async def test_a_failed_sign_in_reason_is_one_visible_line(hostile):
    with pytest.raises(PalastError) as e:
        await hostile([], hello_error=f"Go away{TITLE}\nsecond line")
    assert clean_text(str(e.value)) and "\n" not in str(e.value)


@pytest.mark.parametrize("bad", [
    {"type": "round_over", "round": 1, "deal": 10**30, "standings": [{"player": TITLE, "score": "x", "total": None}]},
    {"type": "round_over", "round": "one", "deal": "p-\x1b", "standings": "nope"},
    {"type": "round_over", "round": 1, "deal": -5, "standings": [1, 2, {"seconds": "9", "solved": True}]},
    {"type": "table_over", "ranking": [{"place": "1st", "player": [TITLE], "total": 1e400}]},
    {"type": "table_over", "ranking": {"a": 1}},
    {"type": "progress", "player": f"Eve{TITLE}", "score": "lots", "runs": [], "moves": {}, "state": 5, "seconds": "x"},
    {"type": "progress", "player": ["x"], "state": "solved", "seconds": float("inf")},
    {"type": "joined", "table": table(id="x", players=5, seats=None, rounds=[1]), "code": {"x": TITLE}},
    {"type": "joined", "table": "not a table", "code": None},
    {"type": "table", "table": table(players=[1, None, TITLE])},
    {"type": "round", "table": 7, "round": "x", "position": 5, "ends_at": "soon"},
    {"type": "round", "table": 7, "round": 1, "position": "garbage\x1b", "ends_at": 1e308},
    {"type": "closed", "table": 7, "reason": TITLE},
    {"type": "error", "reason": {"nested": TITLE}},
    {"type": ["list"]},
    "not json at all \x1b]0;x\x07",
    "[1, 2, 3]",
    "null",
])
async def test_no_value_from_a_server_crashes_the_app_or_reaches_the_terminal(hostile, bad):
    script = [{"type": "joined", "table": table(), "code": None}, bad,
              {"type": "progress", "player": "Marker", "score": 1, "runs": 0, "moves": 1, "state": "playing"}]
    _h, s = await hostile(script)
    await settle(s, lambda: "Marker" in s.opponents)  # every message before it was read
    text = screen_text(s)
    assert clean_text(text), text
    assert "PWNED" not in text or "\\x1b" in text


async def test_the_lobby_and_league_from_a_hostile_server_are_clean(hostile):
    def answer(req):
        if req["type"] == "tables":
            return {"type": "tables", "tables": [table(), table(id=8, host=None, suits="many"), "junk", None]}
        return {"type": "league", "players": [{"name": TITLE, "rating": "high", "tables": "x", "place": -1}, 7],
                "me": {"name": f"Victim{CSI}", "rating": 1e300, "place": 10**20}}

    _h, s = await hostile([], answer=answer)
    await s.refresh()
    await s.load_league()
    assert len(s.tables) == 2
    text = screen_text(s)
    assert clean_text(text), text


async def test_the_connect_screen_shows_a_hostile_refusal_visibly(tmp_path, monkeypatch):
    """The app itself: a server that refuses the hello with an escape; the connect screen's
    status line shows it escaped (\\x1b), the terminal never gets it."""
    import random
    from datetime import date

    from spider_tui.ui_launch import Launch
    from spider_tui.store import SaveFile
    from spider_tui.ui.app import SpiderApp
    from spider_tui.ui.palast.connect import ConnectScreen

    h = Hostile([], hello_error=f"Go away{TITLE}")
    server = await serve(h.handler, "127.0.0.1", 0)
    url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(tmp_path / "data"))
    app = SpiderApp(SaveFile(tmp_path / "data" / "save.toml"), Launch(server=url), today=lambda: date(2026, 12, 1),
                    rng=random.Random(5))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            end = asyncio.get_running_loop().time() + 30
            while not isinstance(app.screen, ConnectScreen):
                assert asyncio.get_running_loop().time() < end
                await pilot.pause(0.05)
            await pilot.click("#c-name")
            for ch in "eve":
                await pilot.press(ch)
            await pilot.press("enter")
            status = app.screen.query_one("#c-status")
            while "Go away" not in str(status.render()):
                assert asyncio.get_running_loop().time() < end
                await pilot.pause(0.05)
            shown = str(status.render())
            assert clean_text(shown) and "\\x1b]0;PWNED\\x07" in shown
    finally:
        server.close()
        await server.wait_closed()
