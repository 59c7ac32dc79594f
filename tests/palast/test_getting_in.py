"""Issue 33 item 8: getting into the Palast, and its league, as a player expects.

- "Palast (p)" goes straight into the last Palast used with the remembered name (the one on this
  computer is started again, a server is connected to): one key, no form, no question.  The form
  is for a first visit, or when that failed;
- no operating-system error text ("[Errno 111] Connect call failed ('127.0.0.1', 8765)") ever
  reaches the screen or the command line: the common causes have a translated sentence each;
- ``spider league`` after playing on the Palast on this computer shows that Palast's league (read
  from its file in the data dir), and a clear line otherwise (SPEC §13: "The lobby has a League
  view; `spider league` prints it").
"""

from __future__ import annotations

import asyncio
import errno
import json
import random
import socket
import sqlite3
import subprocess
import sys
from datetime import date

import pytest

from spider_tui.i18n import set_language
from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.client.reach import why
from spider_tui.palast.client.session import PalastError, PalastSession
from spider_tui.palast.embedded import DB_FILE, LOGIN_KEY, EmbeddedPalast
from spider_tui.palast.messages import Code
from spider_tui.store import SaveFile
from spider_tui.store.palast import put_login, server_login
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.palast.connect import ConnectScreen, PlayHere
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui_launch import Launch
from tests.waiting import until_app as until

#: What the operating system says, which a player never reads.
OS_WORDS = ("Errno", "Connect call failed", "Name or service not known", "Multiple exceptions", "('127.0.0.1'")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spider(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "spider_tui", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **env})


# ---------------------------------------------------------------- no raw socket error, anywhere

async def test_a_refused_connection_is_said_in_our_words_never_the_systems():
    url = f"ws://127.0.0.1:{free_port()}"
    with pytest.raises(PalastError) as e:
        await PalastSession(url, "Anna").start()
    said = str(e.value)
    assert said == f"Can't reach {url}: nothing answers there." and e.value.code is Code.UNREACHABLE
    assert not any(w in said for w in OS_WORDS), said


@pytest.mark.parametrize("exc, words", [
    (ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed ('127.0.0.1', 8765)"), "nothing answers there"),
    (OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 8765, 0, 0), "
             "[Errno 111] Connect call failed ('127.0.0.1', 8765)"), "nothing answers there"),
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "no computer is called"),
    (OSError(errno.EHOSTUNREACH, "No route to host"), "can't be reached from here"),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), "no network connection"),
    (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "cut the connection"),
    (TimeoutError(), "no answer"),
    (OSError(errno.EIO, "Input/output error"), "the connection failed"),
    (OSError("something odd"), "the connection failed"),
])
def test_each_common_socket_error_has_its_own_sentence(exc, words):
    text, code = why("ws://palast.example:8765", exc)
    assert words in text and code is Code.UNREACHABLE
    assert not any(w in text for w in OS_WORDS), text
    if getattr(exc, "strerror", None):
        assert exc.strerror not in text
    if isinstance(exc, socket.gaierror):
        assert "palast.example" in text


def test_the_sentences_are_translated():
    set_language("de")
    try:
        for exc in (ConnectionRefusedError(errno.ECONNREFUSED, "x"), socket.gaierror(-2, "x"),
                    OSError(errno.EHOSTUNREACH, "x"), OSError(errno.EIO, "x")):
            text, _code = why("ws://h:1", exc)
            assert text.startswith("ws://h:1") or "ws://h:1" in text
            assert not any(w in text for w in ("Can't", "reach", "nothing", "computer", "connection")), text
    finally:
        set_language("en")


# ---------------------------------------------------------------- one step into the Palast

def make_app(d) -> SpiderApp:
    return SpiderApp(SaveFile(d / "save.toml"), Launch(), today=lambda: date(2026, 11, 29), rng=random.Random(5))


async def test_palast_key_goes_straight_back_into_the_palast_here_with_the_remembered_name(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    monkeypatch.setattr("spider_tui.ui.palast.connect.DEFAULT_SERVER", f"ws://127.0.0.1:{free_port()}")
    # The first visit: the form, the name, nothing at the default address, "play here?" yes.
    app = make_app(d)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await pilot.press(*"Anna", "enter")
        await until(pilot, lambda: isinstance(app.screen, PlayHere))
        assert not any(w in str(app.screen.reason) for w in OS_WORDS), app.screen.reason
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, PalastScreen))
    # The next time: "p" alone, and the lobby of the Palast here, as Anna.  While it starts, only
    # the status line shows (no form to fill in).
    app = make_app(d)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, (ConnectScreen, PalastScreen)))
        if isinstance(app.screen, ConnectScreen):
            assert app.screen.has_class("-auto") and not app.screen.query_one("#c-name").display
        await until(pilot, lambda: isinstance(app.screen, (PalastScreen, PlayHere)))
        assert isinstance(app.screen, PalastScreen)
        assert app.screen.session.name == "Anna" and app.screen.session.url == app.here.url
        assert server_login(app.book.data, LOGIN_KEY)[0] == "Anna"
        # q back to the start screen, p again: the same Palast, still one key
        here_url = app.here.url
        await pilot.press("q")
        await until(pilot, lambda: not isinstance(app.screen, PalastScreen))
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PalastScreen))
        assert app.screen.session.url == here_url


async def test_palast_key_goes_straight_to_a_remembered_server_and_to_the_form_when_it_is_gone(
        palast, tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    c = await PalastClient.connect(palast.url)
    welcome = await c.hello("Bea", None)
    await c.close()
    save = SaveFile(d / "save.toml")
    save.update(lambda data: put_login(data, palast.url, "Bea", welcome["token"]))
    app = make_app(d)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PalastScreen))
        assert app.screen.session.name == "Bea" and app.screen.session.url == palast.url
    # The server remembered is gone: the form, one line in our words, and the offer to play here.
    gone = f"ws://127.0.0.1:{free_port()}"
    save.update(lambda data: put_login(data, gone, "Bea", "some-token"))
    app = make_app(d)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlayHere))
        assert f"Can't reach {gone}: nothing answers there." in app.screen.reason
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        status = str(app.screen.query_one("#c-status").render())
        assert "nothing answers there" in status and not any(w in status for w in OS_WORDS), status


# ---------------------------------------------------------------- spider league after the Palast here

def played_here(d, name: str = "Anna", experience: int = 12) -> None:
    """A visit to the Palast on this computer as the app makes it (its file in the data dir, the
    login under "here", remembered as the last Palast), then ``experience`` points scored there
    (set in its file: the points a Training round against house bots would have given)."""
    here = EmbeddedPalast(d)
    url = here.start()
    try:
        async def visit() -> str:
            c = await PalastClient.connect(url)
            welcome = await c.hello(name, None)
            await c.close()
            return welcome["token"]

        token = asyncio.run(visit())
    finally:
        here.stop()
    SaveFile(d / "save.toml").update(lambda data: put_login(data, LOGIN_KEY, name, token))
    db = sqlite3.connect(d / DB_FILE)
    with db:
        db.execute("UPDATE players SET experience = ? WHERE name_key = ?", (experience, name.casefold()))
    db.close()


def test_spider_league_after_the_palast_here_shows_its_league(tmp_path):
    d = tmp_path / "data"
    played_here(d)
    before = (d / "save.toml").read_bytes()
    env = {"SPIDER_DATA_DIR": str(d)}
    run = spider("league", "--json", env=env)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"players": [{"name": "Anna", "rating": 0.0, "tables": 0, "wins": 0,
                                                   "experience": 12}]}
    table = spider("league", env=env)
    assert table.returncode == 0 and "Anna" in table.stdout and "on this computer" in table.stdout, table
    assert (d / "save.toml").read_bytes() == before  # a read-only command writes nothing


def test_spider_league_falls_back_to_the_palast_here_when_nothing_answers(tmp_path):
    d = tmp_path / "data"
    played_here(d, "Cleo", 40)
    # The last Palast was a server that has gone since.
    gone = f"ws://127.0.0.1:{free_port()}"
    SaveFile(d / "save.toml").update(lambda data: put_login(data, gone, "Cleo", "t"))
    run = spider("league", "--json", env={"SPIDER_DATA_DIR": str(d)})
    assert run.returncode == 0, run.stderr
    assert [p["name"] for p in json.loads(run.stdout)["players"]] == ["Cleo"]
    assert run.stderr.count("\n") == 1 and f"Can't reach {gone}: nothing answers there." in run.stderr
    assert "on this computer" in run.stderr and not any(w in run.stderr for w in OS_WORDS)


def default_port_is_free() -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", 8765)) != 0


def test_spider_league_with_nothing_anywhere_is_one_clear_line(tmp_path):
    env = {"SPIDER_DATA_DIR": str(tmp_path / "empty")}
    port = free_port()
    runs = [["league", "--server", f"ws://127.0.0.1:{port}"], ["bots", "--players", "1", "--server", f"ws://127.0.0.1:{port}"]]
    if default_port_is_free():  # no server given: the default address (something else may use it here)
        runs += [["league"], ["bots", "--players", "1"]]
    for argv in runs:
        run = spider(*argv, env=env)
        assert run.returncode == 1 and run.stdout == "" and run.stderr.count("\n") == 1, run
        assert "nothing answers there" in run.stderr and "Traceback" not in run.stderr
        assert not any(w in run.stderr for w in OS_WORDS), run.stderr
    assert not (tmp_path / "empty").exists()  # nothing made, nothing written


async def test_esc_while_it_goes_straight_in_stays_on_the_start_screen(palast, tmp_path, monkeypatch):
    from spider_tui.ui.screens.start_screen import StartScreen

    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    c = await PalastClient.connect(palast.url)
    welcome = await c.hello("Bea", None)
    await c.close()
    SaveFile(d / "save.toml").update(lambda data: put_login(data, palast.url, "Bea", welcome["token"]))
    go_on = asyncio.Event()
    closed: list[PalastSession] = []
    start, close = PalastSession.start, PalastSession.close
    # (Esc goes back at once: signing in is a worker, not a handler that holds the screen's keys)

    async def slow_start(self) -> None:
        await go_on.wait()  # the player presses Esc while it connects
        await start(self)

    async def noted_close(self) -> None:
        closed.append(self)
        await close(self)

    monkeypatch.setattr(PalastSession, "start", slow_start)
    monkeypatch.setattr(PalastSession, "close", noted_close)
    app = make_app(d)
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            await pilot.pause()
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen) and app.screen.busy)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, StartScreen))
        finally:
            go_on.set()  # never leave the app waiting, whatever failed
        # The sign-in ends (cancelled with its screen, or closed if it got through) and shows nothing.
        await until(pilot, lambda: not any(w.group == "connect" and not w.is_finished for w in app.workers))
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert all(s.closed for s in closed)
