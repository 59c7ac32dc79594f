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

Limits (issue 29): a request whose ``Host`` names a site this server doesn't serve (what a
DNS-rebinding page sends) is refused; an address or ``localhost`` always works, other names only
when given with ``--public-host``.  At most ``--max-sessions`` tabs play at once (each is an app
process); one more gets a "full, try later" page.  The terminal size a tab asks for is clamped to
what a terminal needs, and a tab with no key or click for ``--idle-minutes`` is closed (its round
is kept, like any tab that closes).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import re
import shlex
import signal
import sys
from pathlib import Path
from urllib.parse import urlsplit

from spider_tui.cli_args import Parser, UsageError, port
from spider_tui.i18n import _
from spider_tui.safe_text import visible

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
QUIT_WAIT = 5.0  # seconds the tabs' apps get to write their rounds when the server stops
ALL_ADDRESSES = ("0.0.0.0", "::", "")
#: Each tab is an app process of about 40 MB: 8 fit a small machine (a 1 GB VPS, a Raspberry Pi).
DEFAULT_MAX_SESSIONS = 8
DEFAULT_IDLE_MINUTES = 30.0
MAX_WIDTH, MAX_HEIGHT = 300, 120  # a terminal needs no more (a 4K screen at a small font)


def web_parser() -> Parser:
    p = Parser(
        prog="spider web",
        description=_("Serve spider to a web browser: each tab plays its own round, on the same save file. "
                    "There is no login: anyone who can reach the address can play."),
    )
    p.add_argument("--host", default=DEFAULT_HOST, metavar="HOST",
                   help=_('address to listen on (default {host}, this machine only; 0.0.0.0 opens it to the network)').format(host=DEFAULT_HOST))
    p.add_argument("--port", type=port, default=DEFAULT_PORT, metavar="PORT",
                   help=_('port to listen on (default {port}; 0 picks a free one)').format(port=DEFAULT_PORT))
    p.add_argument("--data-dir", metavar="DIR",
                   help=_("where save.toml lives (default: the user data dir; env SPIDER_DATA_DIR)"))
    p.add_argument("--four-color", action="store_true", help=_("a colour for each suit, in every tab"))
    p.add_argument("--public-host", action="append", default=[], metavar="NAME",
                   help=_("a host name browsers use to reach this server (repeatable); other names are refused "
                          "(addresses and localhost always work)"))
    p.add_argument("--max-sessions", type=_positive_int, default=DEFAULT_MAX_SESSIONS, metavar="N",
                   help=_("tabs playing at once, each an app process (default {n})").format(n=DEFAULT_MAX_SESSIONS))
    p.add_argument("--idle-minutes", type=_positive_float, default=DEFAULT_IDLE_MINUTES, metavar="M",
                   help=_("close a tab with no key or click for M minutes (default {n:g})").format(n=DEFAULT_IDLE_MINUTES))
    return p


def _positive_int(text: str) -> int:
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _positive_float(text: str) -> float:
    import argparse
    import math

    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text!r}")
    return x


def plain(text: str) -> str:
    """``text`` on one line, safe to print to a terminal: the project's one rule (``safe_text``),
    control characters written out (``\\x1b``)."""
    return visible(text, newlines=False)


def tab_command(data_dir: Path, python: str = sys.executable, four_color: bool = False, lang: str | None = None) -> str:
    """The shell command textual-serve runs for each browser tab (``lang``: ``spider web --lang``)."""
    command = f"exec {shlex.quote(python)} -m spider_tui.web_tab --data-dir {shlex.quote(str(data_dir))}"
    return command + (" --four-color" if four_color else "") + (f" --lang {shlex.quote(lang)}" if lang else "")


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


# A phone (SPEC §17): the page is laid out at the screen's width (no 980-px page zoomed out), the
# terminal fills the visible part of the screen (dvh: without the browser's bars), nothing is
# wider than the screen (the start box of 640 px shrinks), and a double tap is the game's, not a zoom.
PHONE_HEAD = """    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <style>
      html, body { margin: 0; width: 100%; height: 100%; overflow: hidden; overscroll-behavior: none; }
      html body .textual-terminal { width: 100vw; height: 100vh; height: 100dvh; touch-action: manipulation; }
      html body .dialog-container { width: 100%; height: 100%; }
      html body .intro { max-width: calc(100% - 32px); box-sizing: border-box; margin: 16px; }
    </style>
"""

# Before the page's script makes the terminal (on load): where the default font leaves fewer than
# 80×24 cells, the font size is chosen from the screen so the table fills it, at 42 columns or
# more (the compact table; 390 px wide: 15 px) and 22 rows or more, never under 12 px by width.
# A desktop window with room for 80×24 keeps the page as it was; ?fontsize=N still decides.
FONT_SCRIPT = """    <script>
      (function () {
        const el = document.getElementById("terminal");
        if (!el || new URLSearchParams(window.location.search).has("fontsize")) return;
        const asked = parseFloat(el.dataset.fontSize) || 16;
        const probe = document.createElement("span");
        probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;line-height:normal;" +
          "font-size:100px;font-family:'Roboto Mono', Monaco, 'Courier New', monospace";
        probe.textContent = "0000000000";
        document.body.appendChild(probe);
        const box = probe.getBoundingClientRect();
        probe.remove();
        const cell = box.width / 1000, line = box.height / 100;
        const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
        if (!cell || !line || (width >= 80 * cell * asked && height >= 24 * line * asked)) return;
        const byWidth = Math.max(12, Math.floor(width / (cell * 42)));
        const byHeight = Math.floor(height / (line * 22));
        el.dataset.fontSize = String(Math.max(8, Math.min(asked, byWidth, byHeight)));
      })();
      // The canvas renderers paint a scaled screen into an unscaled canvas (only its top-left
      // part shows) in Chromium at device scale 2 and 3: there xterm.js draws with the DOM.
      if (window.devicePixelRatio !== 1) window.spiderRenderer = "dom";
    </script>
"""


# textual-serve's script loads xterm.js's WebGL and canvas renderers unconditionally; served with
# them behind ``window.spiderRenderer`` (set by FONT_SCRIPT), else unchanged.  A textual-serve
# whose script reads otherwise is served as it is (the page still works, as before).
RENDERER_ADDONS = ("this.webglAddon=new p.WebglAddon,this.terminal.loadAddon(this.webglAddon),"
                   "this.canvasAddon=new m.CanvasAddon,this.terminal.loadAddon(this.canvasAddon),")


def patched_script(original: str) -> str | None:
    """textual-serve's ``textual.js`` with the canvas renderers only where the page wants them;
    None when the script is not the one this was written for."""
    if original.count(RENDERER_ADDONS) != 1:
        return None
    return original.replace(RENDERER_ADDONS, f'(window.spiderRenderer!=="dom"&&({RENDERER_ADDONS[:-1]})),')


def page_template(original: str) -> str:
    """textual-serve's page, without the Google web font (offline play), with a title, made for a
    phone too (viewport, font size from the screen, nothing wider than it), and with the keyboard
    going to the game as soon as the page is up."""
    page = re.sub(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*", "", original)
    page = page.replace("<head>", "<head>\n    <title>spider</title>\n" + PHONE_HEAD, 1)
    return page.replace("</body>", FONT_SCRIPT + FOCUS_SCRIPT + "  </body>", 1)


def served_host(host_header: str, public: tuple[str, ...] = ()) -> bool:
    """Whether a request's ``Host`` names this server: an IP address or ``localhost`` (any port),
    or a name given with ``--public-host``.  Another name is what a DNS-rebinding page sends
    (its own name, now pointing here), so it is refused.

    >>> served_host("127.0.0.1:8000"), served_host("[::1]:80"), served_host("localhost")
    (True, True, True)
    >>> served_host("evil.example:8000"), served_host("spider.example", ("spider.example",))
    (False, True)
    """
    import ipaddress

    host = host_header.strip().lower()
    if not host or any(not c.isprintable() or c.isspace() for c in host):
        return False
    if host.startswith("["):
        name = host[1:].split("]", 1)[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    if name == "localhost" or name in {p.lower().rstrip(".") for p in public}:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """The terminal size a tab gets: what it asked for, within 1…MAX_WIDTH × 1…MAX_HEIGHT
    (anything unreadable is 80 × 24)."""
    def num(v: object, default: int, top: int) -> int:
        try:
            n = int(v)  # type: ignore[call-overload]
        except (TypeError, ValueError, OverflowError):
            n = default
        return max(1, min(top, n))

    return num(width, 80, MAX_WIDTH), num(height, 24, MAX_HEIGHT)


FULL_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>spider</title></head>
<body><p>{text}</p></body></html>
"""


def make_server(host: str, port: int, data_dir: Path, four_color: bool = False, lang: str | None = None, *,
                public_hosts: tuple[str, ...] = (), max_sessions: int = DEFAULT_MAX_SESSIONS,
                idle_seconds: float = DEFAULT_IDLE_MINUTES * 60):
    """A textual-serve ``Server`` for the game (imported here: only ``spider web`` needs it)."""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class WebServer(Server):
        """textual-serve's Server with our page, our start message and a clean stop."""

        def __init__(self) -> None:
            super().__init__(tab_command(data_dir, four_color=four_color, lang=lang), host=host, port=port, title="spider")
            self.tabs: set[asyncio.Task] = set()

        def web_app(self) -> web.Application:
            app = web.Application(middlewares=[self.check_host], client_max_size=64 * 1024)
            original = (self.templates_path / "app_index.html").read_text(encoding="utf-8")
            aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": page_template(original)}))
            script = patched_script((self.statics_path / "js" / "textual.js").read_text(encoding="utf-8"))
            if script is not None:
                async def handle_script(request: web.Request) -> web.Response:
                    return web.Response(text=script, content_type="application/javascript")

                app.add_routes([web.get("/static/js/textual.js", handle_script)])
            app.add_routes([
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ])
            return app

        @web.middleware
        async def check_host(self, request: web.Request, handler):
            """Every request: a Host this server serves, else 421 (nothing is started)."""
            if not served_host(request.host, public_hosts):
                return web.Response(status=421, text=_("spider web: this server doesn't serve that host name; "
                                                       "start it with --public-host NAME to allow a name.") + "\n")
            return await handler(request)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            if len(self.tabs) >= max_sessions:
                return self.full()
            return await self.index_page(request)

        def full(self) -> web.Response:
            text = _("spider web is full: {n} tabs are playing. Try again later.").format(n=max_sessions)
            return web.Response(status=503, content_type="text/html", headers={"Retry-After": "60"},
                                text=FULL_PAGE.format(text=html.escape(text)))

        @aiohttp_jinja2.template("app_index.html")
        async def index_page(self, request: web.Request) -> dict:
            # The websocket goes back to the address the browser used (0.0.0.0 is no address).
            secure = request.scheme == "https"
            return {
                "font_size": max(6, min(64, _int(request.query.get("fontsize", ""), 16))),
                "app_websocket_url": f"{'wss' if secure else 'ws'}://{request.host}/ws",
                "config": {"static": {"url": "/static/"}},
                "application": {"name": "spider"},
            }

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
            if not same_origin(request.headers.get("Origin"), request.host):
                # Another web site's script may not play here (browsers always send Origin).
                raise web.HTTPForbidden(text=_("spider web: only its own page may open a game"))
            if len(self.tabs) >= max_sessions:
                return self.full()
            task = asyncio.current_task()  # aiohttp runs each request in a task
            if task is not None:
                self.tabs.add(task)
            try:
                return await self.play(request)
            finally:
                self.tabs.discard(task)  # type: ignore[arg-type]

        async def play(self, request: web.Request) -> web.WebSocketResponse:
            """textual-serve's ``handle_websocket`` with the size clamped (SPEC §12's tiny terminal
            is the app's business; a huge one costs the server memory)."""
            from textual_serve.app_service import AppService

            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=64 * 1024)
            width, height = clamp_size(request.query.get("width", "80"), request.query.get("height", "24"))
            app_service: AppService | None = None
            try:
                await websocket.prepare(request)
                app_service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                         close=websocket.close,  # type: ignore[arg-type]
                                         download_manager=self.download_manager,
                                         debug=self.debug)
                await app_service.start(width, height)
                try:
                    await self._process_messages(websocket, app_service)
                finally:
                    await app_service.stop()
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:  # textual-serve logs these too
                logging.getLogger("spider.web").warning("a tab ended: %s", type(error).__name__)
            finally:
                if app_service is not None:
                    await app_service.stop()
            return websocket

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service) -> None:
            """What the page sends: keys, its size (clamped), pings; no key or click for the idle
            time closes the tab (the app keeps its round)."""

            try:
                await self._read_page(websocket, app_service)
            except TimeoutError:
                logging.getLogger("spider.web").info("closing a tab idle for %.0f s", idle_seconds)
                await websocket.close(code=4000, message=b"idle")

        async def _read_page(self, websocket: web.WebSocketResponse, app_service) -> None:
            from aiohttp import WSMsgType

            async with asyncio.timeout(idle_seconds) as idle:
                async for message in websocket:
                    if message.type != WSMsgType.TEXT:
                        continue
                    try:
                        envelope = json.loads(message.data)
                        kind, data = envelope[0], envelope[1]
                    except (ValueError, TypeError, IndexError, KeyError):
                        continue
                    if kind == "stdin" and isinstance(data, str):
                        idle.reschedule(asyncio.get_running_loop().time() + idle_seconds)
                        await app_service.send_bytes(data.encode("utf-8"))
                    elif kind == "resize" and isinstance(data, dict):
                        await app_service.set_terminal_size(*clamp_size(data.get("width"), data.get("height")))
                    elif kind == "ping":
                        await websocket.send_json(["pong", data])
                    elif kind == "blur":
                        await app_service.blur()
                    elif kind == "focus":
                        await app_service.focus()

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


async def serve(host: str, port: int, data_dir: Path, *, four_color: bool = False, out=sys.stdout,
                lang: str | None = None, public_hosts: list[str] | tuple[str, ...] = (),
                max_sessions: int = DEFAULT_MAX_SESSIONS, idle_seconds: float = DEFAULT_IDLE_MINUTES * 60) -> int:
    """Serve until SIGINT or SIGTERM; print the URL once the port is open."""
    from aiohttp import web

    server = make_server(host, port, data_dir, four_color, lang, public_hosts=tuple(public_hosts),
                         max_sessions=max_sessions, idle_seconds=idle_seconds)
    runner = web.AppRunner(server.web_app(), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, host or None, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        reason = e.strerror or str(e)
        print(_("spider web: can't listen on {host}:{port}: {reason}").format(host=plain(host), port=port, reason=plain(reason)), file=sys.stderr)
        return 1
    bound = runner.addresses[0][1] if runner.addresses else port
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    url = f"http://{url_host(host)}:{bound}/"
    # The first line stays English: scripts and tests read the address from it.
    lines = [f"spider is served at {url}",
             _("Each browser tab plays its own round; all share {path}.").format(path=plain(str(data_dir / "save.toml")))]
    if host in ALL_ADDRESSES:
        lines.append(_("Listening on every network address: anyone who can reach this machine can play "
                       "and change the save file (there is no login)."))
    lines.append(_("Ctrl+C stops the server."))
    print("\n".join(lines), file=out, flush=True)
    try:
        await stop.wait()
        print(_("spider web: stopping; open tabs keep their rounds."), file=out, flush=True)
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
        raise UsageError(_("argument --host: not a host name or address"), "spider web")
    data_dir = resolve_data_dir(args.data_dir).absolute()
    if data_dir.exists() and not data_dir.is_dir():
        # Every tab would say so; say it once, before anyone opens one.
        print(_('spider web: the data dir {path} is not a directory').format(path=plain(str(data_dir))), file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="spider web: %(message)s")
    for name in args.public_host:
        if not name or any(not c.isprintable() or c.isspace() for c in name):
            raise UsageError(_("argument --public-host: not a host name"), "spider web")
    return asyncio.run(serve(args.host, args.port, data_dir, four_color=args.four_color, lang=args.lang,
                             public_hosts=args.public_host, max_sessions=args.max_sessions,
                             idle_seconds=args.idle_minutes * 60))
