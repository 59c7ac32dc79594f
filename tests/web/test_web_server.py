"""``spider web``: arguments, the printed URL, the page it serves, Ctrl+C (real server, loopback)."""

from __future__ import annotations

import shlex
import socket
import subprocess
import sys
import unicodedata
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_tui.cli import main
from spider_tui.safe_text import visible
from spider_tui.web import page_template, plain, same_origin, tab_command, url_host

from .conftest import start_server

NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def get(url: str, headers: dict | None = None) -> tuple[int, str, str]:
    with NO_PROXY.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read().decode("utf-8")


@pytest.mark.parametrize(("args", "reason"), [
    (["--port", "x"], "argument --port: port must be a whole number, not 'x'"),
    (["--port", "70000"], "argument --port: port must be 0..65535, not 70000"),
    (["--port", "-1"], "argument --port: port must be 0..65535, not -1"),
    (["--suits", "2"], "unrecognized arguments: --suits 2"),
    (["--host", "evil\x1b]0;title\x07"], "argument --host: not a host name or address"),
])
def test_bad_arguments_exit_2_with_one_line(args, reason, capsys):
    assert main(["web", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"spider web: {reason}\n"


def test_help_names_the_options_and_the_missing_login(capsys):
    with pytest.raises(SystemExit) as e:
        main(["web", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for word in ("--host", "--port", "--data-dir", "no login"):
        assert word in out


def test_url_is_printed_the_page_is_served_and_ctrl_c_stops_cleanly(web_server):
    out = web_server.output()
    assert web_server.url.startswith("http://127.0.0.1:")
    assert "Ctrl+C" in out
    assert str(web_server.data_dir / "save.toml") in out
    status, kind, page = get(web_server.url)
    assert status == 200 and kind.startswith("text/html")
    host = web_server.url.split("/")[2]
    assert f'data-session-websocket-url="ws://{host}/ws"' in page
    assert "<title>spider</title>" in page
    assert "fonts.googleapis.com" not in page  # no request leaves the machine
    assert ".xterm-helper-textarea" in page  # keys go to the game without a first click
    status, _, script = get(web_server.url + "static/js/textual.js")
    assert status == 200 and "WebSocket" in script
    assert web_server.stop() == 0
    assert "Traceback" not in web_server.output()


def test_the_page_sends_the_browser_back_to_the_address_it_used(web_server):
    # With --host 0.0.0.0 the browser comes in by the machine's real address; the page's
    # websocket must go there, not to 0.0.0.0 (textual-serve's own page would).
    _, _, page = get(web_server.url, {"Host": "192.0.2.7:8123"})
    assert 'data-session-websocket-url="ws://192.0.2.7:8123/ws"' in page


def test_all_addresses_come_with_a_warning(tmp_path):
    server = start_server(tmp_path / "data", "--host", "0.0.0.0")
    try:
        assert server.url.startswith("http://127.0.0.1:")
        assert "anyone who can reach this machine can play" in server.output()
        assert "no login" in server.output()
    finally:
        assert server.stop() == 0


def test_a_port_in_use_is_one_line_and_status_1(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "spider_tui", "web", "--port", str(port), "--data-dir", str(tmp_path)],
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"spider web: can't listen on 127.0.0.1:{port}: "), r.stderr


def test_the_tab_command_keeps_any_data_dir_literal(tmp_path):
    odd = tmp_path / "a b" / "$(touch x)" / "it's"
    assert shlex.split(tab_command(odd, python="/usr/bin/python3")) == [
        "exec", "/usr/bin/python3", "-m", "spider_tui.web_tab", "--data-dir", str(odd)]


@pytest.mark.parametrize(("host", "shown"), [
    ("127.0.0.1", "127.0.0.1"), ("0.0.0.0", "127.0.0.1"), ("::", "127.0.0.1"),
    ("::1", "[::1]"), ("localhost", "localhost"),
])
def test_url_host(host, shown):
    assert url_host(host) == shown


def test_page_template_drops_the_web_font_adds_a_title_and_gives_the_game_the_keys():
    original = ('<html>\n  <head>\n    <link rel="stylesheet" href="x.css" />\n    <link\n      rel="stylesheet"\n'
                '      href="https://fonts.googleapis.com/css?family=Roboto%20Mono"\n    />\n  </head>\n'
                '  <body>\n    <div id="terminal"></div>\n  </body>\n</html>\n')
    page = page_template(original)
    assert "googleapis" not in page
    assert '<link rel="stylesheet" href="x.css" />' in page
    assert "<title>spider</title>" in page
    focus = page.index('querySelector(".xterm-helper-textarea")')
    assert page.index('<div id="terminal">') < focus < page.index("</body>")


@pytest.mark.parametrize(("origin", "host", "allowed"), [
    (None, "127.0.0.1:8000", True),  # not a browser
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("http://LOCALHOST:8000", "localhost:8000", True),
    ("https://192.0.2.7:8000", "192.0.2.7:8000", True),
    ("http://evil.example", "127.0.0.1:8000", False),
    ("http://127.0.0.1:9999", "127.0.0.1:8000", False),
    ("null", "127.0.0.1:8000", False),
    ("file://", "127.0.0.1:8000", False),
])
def test_same_origin(origin, host, allowed):
    assert same_origin(origin, host) is allowed


async def test_another_sites_page_cannot_open_a_game(web_server):
    import aiohttp

    ws_url = web_server.url.replace("http://", "ws://") + "ws?width=80&height=24"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as e:
            await session.ws_connect(ws_url, headers={"Origin": "http://evil.example"})
        assert e.value.status == 403
        own = web_server.url.rstrip("/")
        async with session.ws_connect(ws_url, headers={"Origin": own}) as ws:
            message = await ws.receive(timeout=60)
            assert message.type == aiohttp.WSMsgType.BINARY  # the game's first frame


def test_a_data_dir_that_is_a_file_is_one_line_and_status_1(tmp_path, capsys):
    not_a_dir = tmp_path / "save-here"
    not_a_dir.write_text("x")
    assert main(["web", "--port", "0", "--data-dir", str(not_a_dir)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"spider web: the data dir {not_a_dir} is not a directory\n")
    assert not_a_dir.read_text() == "x"


@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), min_size=1))
def test_any_data_dir_reaches_the_tab_literally(name):
    data_dir = Path("/tmp") / name
    assert shlex.split(tab_command(data_dir, python="/py thon"))[1:] == [
        "/py thon", "-m", "spider_tui.web_tab", "--data-dir", str(data_dir)]


@given(st.text())
def test_plain_text_has_no_control_characters(text):
    # The one safe-text rule (spider_tui/safe_text.py): controls written out, on one line.
    shown = plain(text)
    assert shown == visible(text, newlines=False)
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in shown)
    assert "\u202e" not in shown and "\n" not in shown
    assert all(c in shown for c in text if c.isprintable())
