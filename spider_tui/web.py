"""``spider web``: serve the game to a browser with textual-serve.

Each browser tab gets its own app process (:mod:`spider_tui.web_tab`), all on one save file, so
two tabs behave like two SSH logins.  The URL is printed once the port is open; Ctrl+C (SIGINT)
or SIGTERM stops the server cleanly: every tab's app is told to quit (keeping its unfinished
round) and the command exits with status 0.

The page is textual-serve's, with three changes made while it is loaded: no web font from Google
(the game works offline; the browser's monospace font is used), a title, and the keyboard goes
to the game at once (no first click into the page).  The page's websocket address is taken
from the address the browser used, so ``--host 0.0.0.0`` works from other machines too, and
only the game's own page may open a game (the browser's ``Origin`` is checked).
"""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import signal
import sys
from pathlib import Path
from urllib.parse import urlsplit

from spider_tui.cli_args import Parser, UsageError, port
from spider_tui.safe_text import visible

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
QUIT_WAIT = 5.0  # seconds the tabs' apps get to write their rounds when the server stops
ALL_ADDRESSES = ("0.0.0.0", "::", "")


def web_parser() -> Parser:
    p = Parser(
        prog="spider web",
        description="Serve spider to a web browser: each tab plays its own round, on the same save file. "
                    "There is no login: anyone who can reach the address can play.",
    )
    p.add_argument("--host", default=DEFAULT_HOST, metavar="HOST",
                   help=f"address to listen on (default {DEFAULT_HOST}, this machine only; 0.0.0.0 opens it to the network)")
    p.add_argument("--port", type=port, default=DEFAULT_PORT, metavar="PORT",
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="where save.toml lives (default: the user data dir; env SPIDER_DATA_DIR)")
    p.add_argument("--four-color", action="store_true", help="a colour for each suit, in every tab")
    return p


def plain(text: str) -> str:
    """``text`` on one line, safe to print to a terminal: the project's one rule (``safe_text``),
    control characters written out (``\\x1b``)."""
    return visible(text, newlines=False)


def tab_command(data_dir: Path, python: str = sys.executable, four_color: bool = False) -> str:
    """The shell command textual-serve runs for each browser tab."""
    command = f"exec {shlex.quote(python)} -m spider_tui.web_tab --data-dir {shlex.quote(str(data_dir))}"
    return command + (" --four-color" if four_color else "")


def url_host(host: str) -> str:
    """The host part of a URL for ``host``: IPv6 in brackets; "all addresses" shown as loopback."""
    if host in ALL_ADDRESSES:
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


FOCUS_SCRIPT = """    <script>
      // Keys reach the game at once: no first click into the page needed.
      window.addEventListener("load", () => setTimeout(() => {
        const input = document.querySelector(".xterm-helper-textarea");
        if (input) input.focus();
      }, 0));
    </script>
"""


def page_template(original: str) -> str:
    """textual-serve's page, without the Google web font (offline play), with a title, and with
    the keyboard going to the game as soon as the page is up."""
    page = re.sub(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*", "", original)
    page = page.replace("<head>", "<head>\n    <title>spider</title>", 1)
    return page.replace("</body>", FOCUS_SCRIPT + "  </body>", 1)


def make_server(host: str, port: int, data_dir: Path, four_color: bool = False):
    """A textual-serve ``Server`` for the game (imported here: only ``spider web`` needs it)."""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class WebServer(Server):
        """textual-serve's Server with our page, our start message and a clean stop."""

        def __init__(self) -> None:
            super().__init__(tab_command(data_dir, four_color=four_color), host=host, port=port, title="spider")
            self.tabs: set[asyncio.Task] = set()

        def web_app(self) -> web.Application:
            app = web.Application()
            original = (self.templates_path / "app_index.html").read_text(encoding="utf-8")
            aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": page_template(original)}))
            app.add_routes([
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ])
            return app

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict:
            # The websocket goes back to the address the browser used (0.0.0.0 is no address).
            secure = request.scheme == "https"
            return {
                "font_size": max(6, min(64, _int(request.query.get("fontsize", ""), 16))),
                "app_websocket_url": f"{'wss' if secure else 'ws'}://{request.host}/ws",
                "config": {"static": {"url": "/static/"}},
                "application": {"name": "spider"},
            }

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if not same_origin(request.headers.get("Origin"), request.host):
                # Another web site's script may not play here (browsers always send Origin).
                raise web.HTTPForbidden(text="spider web: only its own page may open a game")
            task = asyncio.current_task()  # aiohttp runs each request in a task
            if task is not None:
                self.tabs.add(task)
            try:
                return await super().handle_websocket(request)
            finally:
                self.tabs.discard(task)  # type: ignore[arg-type]

        async def close_tabs(self) -> None:
            """Tell every tab's app to quit (it keeps its round) and wait for them a moment."""
            tabs = list(self.tabs)
            for task in tabs:
                task.cancel()  # textual-serve then sends its app "quit" and waits for it
            if tabs:
                await asyncio.wait(tabs, timeout=QUIT_WAIT)

    return WebServer()


def same_origin(origin: str | None, host: str) -> bool:
    """May a websocket from a page at ``origin`` open a game on this server (reached as ``host``)?

    Browsers send ``Origin`` with every websocket handshake and scripts can't change it: a page
    of another site gets a different origin.  Clients that are not browsers send none.
    """
    if origin is None:
        return True
    parsed = urlsplit(origin)
    return parsed.scheme in ("http", "https") and parsed.netloc.lower() == host.lower()


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


async def serve(host: str, port: int, data_dir: Path, *, four_color: bool = False, out=sys.stdout) -> int:
    """Serve until SIGINT or SIGTERM; print the URL once the port is open."""
    from aiohttp import web

    server = make_server(host, port, data_dir, four_color)
    runner = web.AppRunner(server.web_app(), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, host or None, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        reason = e.strerror or str(e)
        print(f"spider web: can't listen on {plain(host)}:{port}: {plain(reason)}", file=sys.stderr)
        return 1
    bound = runner.addresses[0][1] if runner.addresses else port
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    url = f"http://{url_host(host)}:{bound}/"
    lines = [f"spider is served at {url}",
             f"Each browser tab plays its own round; all share {plain(str(data_dir / 'save.toml'))}."]
    if host in ALL_ADDRESSES:
        lines.append("Listening on every network address: anyone who can reach this machine can play "
                     "and change the save file (there is no login).")
    lines.append("Ctrl+C stops the server.")
    print("\n".join(lines), file=out, flush=True)
    try:
        await stop.wait()
        print("spider web: stopping; open tabs keep their rounds.", file=out, flush=True)
    finally:
        # A second Ctrl+C while the tabs write their rounds changes nothing: the stop is bounded.
        await server.close_tabs()
        await runner.cleanup()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    return 0


def cmd_web(argv: list[str]) -> int:
    """``spider web [--host HOST] [--port PORT] [--data-dir DIR] [--four-color]``."""
    from spider_tui.store import resolve_data_dir

    args = web_parser().parse_args(argv)
    if any(not c.isprintable() for c in args.host):
        raise UsageError("argument --host: not a host name or address", "spider web")
    data_dir = resolve_data_dir(args.data_dir).absolute()
    if data_dir.exists() and not data_dir.is_dir():
        # Every tab would say so; say it once, before anyone opens one.
        print(f"spider web: the data dir {plain(str(data_dir))} is not a directory", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="spider web: %(message)s")
    return asyncio.run(serve(args.host, args.port, data_dir, four_color=args.four_color))
