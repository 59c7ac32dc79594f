"""``spider server``, ``spider league`` and ``spider bots`` (SPEC §13).

Bad arguments exit 2 with one line (``cli.UsageError``); a server that can't be reached is one
line on stderr and exit 1.  Text from the network is printed as plain text (Rich ``Text``), never
read as markup, and names never hold control characters (the server checks them; the table
printer strips any that would come from elsewhere).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sqlite3
import sys
from pathlib import Path

from spider_tui.cli_args import Parser, UsageError, port
from spider_tui.i18n import N_, _

DEFAULT_URL = "ws://127.0.0.1:8765"


def _positive(kind):
    def check(text: str):
        import argparse

        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_('must be a number, not {text!r}').format(text=text)) from None
        if v <= 0:
            raise argparse.ArgumentTypeError(_('must be more than 0, not {text!r}').format(text=text))
        return v

    return check


def _url(text: str) -> str:
    import argparse

    if not text.startswith(("ws://", "wss://")):
        raise argparse.ArgumentTypeError(_('a server URL starts with ws:// or wss://, not {text!r}').format(text=text))
    return text


def server_parser() -> Parser:
    p = Parser(prog="spider server", description=_("Run the Palast: live Spider tables over WebSocket."))
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    p.add_argument("--port", type=port, default=8765, help=_("port (default 8765; 0 picks a free one)"))
    p.add_argument("--db", metavar="URL", help=_("database: sqlite:///PATH or a path (default: palast.sqlite3 in the data dir), "
                   "or postgresql://… (then several server processes can share it)"))
    p.add_argument("--data-dir", metavar="DIR", help=_("where palast.sqlite3 lives (default: the user data dir; env SPIDER_DATA_DIR)"))
    p.add_argument("--round-seconds", type=_positive(float), default=20 * 60, help=_("round clock (default 1200)"))
    p.add_argument("--fast-seconds", type=_positive(float), default=10 * 60, help=_("round clock at Fast tables (default 600)"))
    p.add_argument("--between-seconds", type=_positive(float), default=30, help=_("pause between rounds at most (default 30)"))
    p.add_argument("--start-wait", type=_positive(float), default=30,
                   help=_("a standard table starts this long after its second player sat down (default 30)"))
    p.add_argument("--heartbeat-seconds", type=_positive(float), default=5,
                   help=_("with several processes: how often each says it is alive; one silent for 3x this is "
                        "taken as gone and its players show offline (default 5)"))
    p.add_argument("--out-seconds", type=_positive(float), default=60,
                   help=_("a player offline this long while playing is out; a round of players all done or out "
                        "ends (default 60)"))
    p.add_argument("--house-bots-after", type=_positive(float), default=20, metavar="S",
                   help=_("a person alone at a standard table this long gets house bots (fair bots, marked as "
                        "bots, never rated) until the table is full (default 20)"))
    p.add_argument("--house-bot-pace", type=_positive(float), default=2.5, metavar="S",
                   help=_("seconds between a house bot's actions, on average (default 2.5)"))
    p.add_argument("--house-tables", type=_positive(int), default=16, metavar="N",
                   help=_("at most this many tables have house bots at once (default 16)"))
    p.add_argument("--house-cpu", type=_positive(float), default=0.25, metavar="SHARE",
                   help=_("the share of one CPU the house bots' thinking may use, averaged (default 0.25)"))
    p.add_argument("--no-house-bots", action="store_true", help=_("never seat house bots"))
    # The app's embedded Palast: the server stops when the app (its stdin's other end) is gone.
    p.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)
    # The embedded Palast: only connections that present the secret in $SPIDER_PALAST_KEY get in.
    p.add_argument("--key-from-env", action="store_true", help=argparse.SUPPRESS)
    from spider_tui.palast.server.server import Limits

    d = Limits()
    g = p.add_argument_group(_("limits per address and player (docs/security.md)"))
    g.add_argument("--max-connections", type=_positive(int), default=d.connections, metavar="N",
                   help=_('connections at once, all addresses (default {connections})').format(connections=d.connections))
    g.add_argument("--per-address", type=_positive(int), default=d.per_address, metavar="N",
                   help=_('connections at once from one address (default {per_address})').format(per_address=d.per_address))
    g.add_argument("--names-per-hour", type=_positive(int), default=d.names, metavar="N",
                   help=_('new player names one address may register in an hour (default {names})').format(names=d.names))
    g.add_argument("--tables-per-address", type=_positive(int), default=d.tables, metavar="N",
                   help=_('tables opened from one address waiting to start at once (default {tables})').format(tables=d.tables))
    g.add_argument("--address-rate", type=_positive(float), default=d.address_rate, metavar="R",
                   help=_('messages a second from one address, all its players together (default {address_rate:g}; each player: {rate:g} a second after a burst of {burst:g})').format(address_rate=d.address_rate, rate=d.rate, burst=d.burst))
    g.add_argument("--forwarded-for", action="store_true",
                   help=_("behind a reverse proxy (TLS): take each client's address from the last X-Forwarded-For "
                        "entry; only when every connection comes through that proxy"))
    return p


def quiet_gc() -> None:
    """Keep the cycle collector out of the answer times of a busy server.

    The server's objects are long-lived (connections, tables, each seat's game) and rarely in
    cycles, yet with Python's default thresholds (700, 10, 10) the collector kept walking them
    all: with 500 bots on an idle 2-core machine it paused the event loop 11 times over 5 ms in
    30 s (full collections of ~40 ms), mostly collecting nothing, and the answers' p99 was 29 ms.
    Objects alive after start-up are frozen out of collection, and a collection starts after
    20,000 new objects instead of 700: 5 such pauses, p99 15 ms (one run each, same machine)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def cmd_server(argv: list[str]) -> int:
    args = server_parser().parse_args(argv)
    from spider_tui.store import resolve_data_dir

    from spider_tui.palast.server.db import open_store
    from spider_tui.palast.server.server import PalastServer
    from spider_tui.palast.server.table import Options

    try:
        store = open_store(args.db, resolve_data_dir(args.data_dir))
    except ValueError as e:
        raise UsageError(_('argument --db: {e}').format(e=e), "spider server") from None
    options = Options(round_seconds=args.round_seconds, fast_seconds=args.fast_seconds,
                      between_seconds=args.between_seconds, start_wait=args.start_wait,
                      heartbeat_seconds=args.heartbeat_seconds, out_seconds=args.out_seconds,
                      house_bots_after=None if args.no_house_bots else args.house_bots_after,
                      house_bot_pace=args.house_bot_pace, house_tables=args.house_tables,
                      house_cpu=args.house_cpu)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    # The Palast's own lines (tables started and finished, errors) show; other libraries' chatter doesn't.
    logging.getLogger("spider.palast").setLevel(logging.INFO)
    broker = None
    if args.db and args.db.startswith(("postgresql://", "postgres://")):
        from spider_tui.palast.server.pg_broker import PgBroker  # several processes on one database share events

        broker = PgBroker(args.db)
    from spider_tui.palast.server.server import Limits

    limits = Limits(connections=args.max_connections, per_address=args.per_address, names=args.names_per_hour,
                    tables=args.tables_per_address, address_rate=args.address_rate,
                    address_burst=max(Limits().address_burst, args.address_rate * 2), forwarded=args.forwarded_for)
    if args.key_from_env:
        import os

        limits.key = os.environ.pop("SPIDER_PALAST_KEY", "") or None
        if limits.key is None:
            raise UsageError("--key-from-env: SPIDER_PALAST_KEY is not set", "spider server")
    server = PalastServer(store, args.host, args.port, options=options, broker=broker, limits=limits)

    async def run() -> None:
        import signal

        await server.start()
        quiet_gc()
        # Not translated: the embedded Palast and scripts read this line for the address.
        print(f"spider server: listening on ws://{args.host}:{server.port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
                pass
        if args.until_stdin_closes:
            import threading

            def watch() -> None:
                try:
                    while sys.stdin.buffer.read(4096):
                        pass
                except (OSError, ValueError):
                    pass
                loop.call_soon_threadsafe(stop.set)

            threading.Thread(target=watch, name="palast-stdin", daemon=True).start()
        try:
            await stop.wait()
        finally:
            await server.stop()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        return 0
    except OSError as e:
        print(_("spider server: can't listen on {host}:{port}: {reason}").format(host=args.host, port=args.port, reason=e.strerror or e), file=sys.stderr)
        return 1
    except sqlite3.Error as e:
        print(_("spider server: can't use the database {db}: {e}").format(db=getattr(store, 'path', args.db), e=e), file=sys.stderr)
        return 1
    except Exception as e:  # PostgreSQL unreachable or refusing: one line, no traceback
        if not type(e).__module__.startswith("psycopg"):
            raise
        first = _plain(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
        print(_("spider server: can't use the database: {first}").format(first=first), file=sys.stderr)
        return 1
    return 0


def _saved() -> dict:
    """The save file's data, read and never written (a read-only command moves no file)."""
    try:
        from spider_tui.store import SaveFile, resolve_data_dir, save_path

        return SaveFile(save_path(resolve_data_dir(None))).read()
    except Exception:  # noqa: BLE001 - no save file, or one that can't be read: nothing remembered
        return {}


def remembered_server() -> str:
    """The server the game last signed in to (the save file), else the default address."""
    from spider_tui.store.palast import last_server

    return last_server(_saved()) or DEFAULT_URL


SERVER_HELP = N_("server (default: the one the game last signed in to, else {url})")  # .format(url=DEFAULT_URL) where shown
#: ``spider league``'s --server (issue 33 item 8: after the Palast on this computer, its league).
LEAGUE_SERVER_HELP = N_("server (default: the Palast the game last used, else {url}; the league of the Palast "
                        "on this computer is read from the data dir when that was it, or when nothing answers)")


def league_parser() -> Parser:
    p = Parser(prog="spider league", description=_("Print the Palast league: ratings, tables, wins, experience."))
    p.add_argument("--server", type=_url, default=None, metavar="URL", help=_(LEAGUE_SERVER_HELP).format(url=DEFAULT_URL))
    p.add_argument("--json", action="store_true", help=_('print {"players": [...]} for scripts'))
    p.add_argument("--daily", action="store_true",
                   help=_("print the daily board instead: today's deal per suit count, ranked by points then time"))
    p.add_argument("--suits", type=int, choices=(1, 2, 4), default=None, metavar="K",
                   help=_("with --daily: only the board of K suits (1, 2 or 4)"))
    return p


class NoLeague(Exception):
    """The league couldn't be had: ``str(e)`` is one translated line; ``code`` is
    ``Code.UNREACHABLE`` when nothing answered at all."""

    def __init__(self, text: str, code: object = None) -> None:
        super().__init__(text)
        self.code = code


async def _fetch_league(url: str) -> tuple[list[dict], int]:
    """The league's best players (the server sends the top N) and how many are ranked."""
    from spider_tui.palast.client.client import PalastClient, Refused
    from spider_tui.palast.client.reach import why

    try:
        c = await PalastClient.connect(url)
    except Exception as e:  # noqa: BLE001 - refused, no answer, not a Palast: one line of our own
        raise NoLeague(*why(url, e)) from None
    try:
        answer = await c.request("league")
    except Refused as e:
        raise NoLeague(_plain(e.reason or _("The server said no."))) from None
    except Exception:  # noqa: BLE001 - closed, no answer, a bad answer: one line
        raise NoLeague(_("{url} closed the connection.").format(url=url)) from None
    finally:
        await c.close()
    players = [p for p in answer.get("players") or [] if isinstance(p, dict)]
    total = answer.get("total")
    return players, total if isinstance(total, int) and not isinstance(total, bool) else len(players)


def _here_db() -> Path:
    """The embedded Palast's SQLite file in the data dir (``spider_tui.palast.embedded``)."""
    from spider_tui.palast.embedded import DB_FILE
    from spider_tui.store import resolve_data_dir

    return Path(resolve_data_dir(None)) / DB_FILE


def league_here(path: Path) -> tuple[list[dict], int]:
    """The league of the Palast on this computer (the embedded one), read from its SQLite file in
    the data dir, read-only (it may be running in the app: WAL lets a reader in), with the rows a
    ``league`` answer carries, ranked as ``Lobby.league`` ranks them, the top ``LEAGUE_TOP``."""
    from spider_tui.palast.server.db import PLAYER_COLS, player_row
    from spider_tui.palast.server.league import ordinal
    from spider_tui.palast.server.lobby import LEAGUE_TOP

    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            rows = [player_row(r) for r in db.execute(
                f"SELECT {PLAYER_COLS} FROM players WHERE (tables > 0 OR experience > 0) AND bot = 0").fetchall()]
        finally:
            db.close()
    except sqlite3.Error:
        raise NoLeague(_("The league of the Palast on this computer can't be read ({path}).").format(
            path=_plain(path))) from None
    out: list[dict] = [{"name": p.name, "rating": ordinal(p.rating_mu, p.rating_sigma), "tables": p.tables,
                        "wins": p.wins, "experience": p.experience} for p in rows]
    out.sort(key=lambda p: (-p["rating"], -p["experience"], p["name"].casefold()))
    return out[:LEAGUE_TOP], len(out)


#: Said on stderr when ``spider league`` shows the Palast on this computer's league instead.
HERE_INSTEAD = N_("spider league: {reason} This is the league of the Palast on this computer (the one the game "
                  "starts), from {path}.")
#: With no server named, nothing answering, and no Palast on this computer played yet.
NO_PALAST = N_("{reason} Start a Palast with `spider server`, or name one with --server ws://host:port.")
#: The title of the Palast on this computer's league.
HERE_TITLE = N_("Palast league (the Palast on this computer)")


def cmd_league(argv: list[str]) -> int:
    """``spider league``: the named server's league; with none named, the Palast the game last
    used (the one on this computer is read from its file in the data dir), and the one on this
    computer when nothing answers at the remembered or default server."""
    from spider_tui.palast.messages import Code
    from spider_tui.store.palast import last_server, last_was_here

    args = league_parser().parse_args(argv)
    if args.daily or args.suits is not None:
        from spider_tui.palast.daily_cli import print_daily

        return print_daily(args.server or remembered_server(), args.suits, args.json)
    saved = _saved() if args.server is None else {}
    here = _here_db()
    title = _("Palast league")
    try:
        if args.server is None and last_was_here(saved) and here.exists():
            players, total = league_here(here)
            title = _(HERE_TITLE)
        else:
            url = args.server or last_server(saved) or DEFAULT_URL
            try:
                players, total = asyncio.run(_fetch_league(url))
            except NoLeague as e:
                if args.server is not None or e.code is not Code.UNREACHABLE:
                    raise
                if not here.exists():
                    raise NoLeague(_(NO_PALAST).format(reason=str(e))) from None
                players, total = league_here(here)
                title = _(HERE_TITLE)
                print(_(HERE_INSTEAD).format(reason=str(e), path=_plain(here)), file=sys.stderr)
    except NoLeague as e:
        print(_("spider league: {reason}").format(reason=str(e)), file=sys.stderr)
        return 1
    if args.json:
        keys = ("name", "rating", "tables", "wins", "experience")
        print(json.dumps({"players": [{k: p.get(k) for k in keys} for p in players]}))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title)
    for col, just in (("#", "right"), (_("Player"), "left"), (_("Rating"), "right"), (_("Tables"), "right"),
                      (_("Wins"), "right"), (_("Experience"), "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for i, p in enumerate(players, 1):
        table.add_row(str(i), Text(_plain(p.get("name", ""))), f"{p.get('rating', 0):.2f}", str(p.get("tables", 0)),
                      str(p.get("wins", 0)), str(p.get("experience", 0)))
    if not players:
        print(_("No one has played a table yet."))
    else:
        Console().print(table)
        if total > len(players):
            print(_('The best {shown} of {total} players.').format(shown=len(players), total=total))
    return 0


async def _unreachable(url: str) -> str | None:
    """Why nothing answers at ``url`` (one line of our own, never the operating system's words),
    or None when a Palast does."""
    from spider_tui.palast.client.client import PalastClient
    from spider_tui.palast.client.reach import why

    try:
        c = await PalastClient.connect(url)
    except Exception as e:  # noqa: BLE001 - refused, no answer, not a Palast: one line
        return why(url, e)[0]
    await c.close()
    return None


def _plain(text: object) -> str:
    """Network text for a terminal, on one line: the project's one rule (``safe_text``), control
    characters written out (``\\x1b``)."""
    from spider_tui.safe_text import visible

    return visible(text, newlines=False)


def bots_parser() -> Parser:
    from spider_tui.palast.client.bots import DEFAULT_LEVEL, MAX_LEVEL, PACES

    p = Parser(prog="spider bots", description=_("Run bot players at standard tables (they play by the hint)."))
    p.add_argument("--server", type=_url, default=None, metavar="URL", help=_(SERVER_HELP).format(url=DEFAULT_URL))
    p.add_argument("--players", type=_positive(int), required=True, metavar="N", help=_("bot players, one connection each"))
    p.add_argument("--rate", type=_positive(float), default=1.0, metavar="R", help=_("actions a second per bot (default 1)"))
    p.add_argument("--seconds", type=_positive(float), default=60.0, metavar="S", help=_("how long to play (default 60)"))
    p.add_argument("--level", type=int, choices=range(0, MAX_LEVEL + 1), default=DEFAULT_LEVEL, metavar="L",
                   help=_('how far each bot looks ahead: 1 (quick) to {most} (strong), the size of each plan; 0 plays the hint (cheap, for load tests) (default {default})').format(most=MAX_LEVEL, default=DEFAULT_LEVEL))
    p.add_argument("--pace", choices=PACES, default="fast",
                   help=_("fast: R actions a second; human: a few seconds to look at a new table, "
                   "about a second a move after that (default fast)"))
    p.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    p.add_argument("--progress", action="store_true",
                   help=_('print {"progress": N} (actions accepted so far) once a second, for benchmarks'))
    p.description = _("Run bot players at standard tables (they play as the fair bot: they see only what a "
                      "player sees and never undo).")
    return p


def cmd_bots(argv: list[str]) -> int:
    args = bots_parser().parse_args(argv)
    if args.players > 5000:
        raise UsageError(_("argument --players: at most 5000"), "spider bots")
    from spider_tui.palast.client.bots import run_bots

    args.server = args.server or remembered_server()
    problem = asyncio.run(_unreachable(args.server))
    if problem:  # say why at once, not "errors: N" after the run
        print(_("spider bots: {problem} Start a Palast with `spider server`, or name one with --server ws://host:port.").format(problem=problem),
              file=sys.stderr)
        return 1
    # Hundreds of connections, each with its view and its state, live for the whole run and are
    # rarely in cycles: the same collector settings as the server's (``quiet_gc``).  With the
    # default thresholds 1,000 bots spent ~0.08 ms an action in collections that found nothing.
    quiet_gc()
    try:
        def progress(actions: int) -> None:
            print(json.dumps({"progress": actions}), flush=True)

        summary = asyncio.run(run_bots(args.server, args.players, args.rate, args.seconds, args.level, args.pace,
                                       progress if args.progress else None))
    except KeyboardInterrupt:
        return 130
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            if k == "errors_by_kind":
                for kind, n in v.items():
                    print(f"{n:>16}× {kind}")
            else:
                print(f"{k:>16}: {v}")
    if summary.get("turned_away"):
        print(_(LIMITS_LINE).format(n=summary["turned_away"], players=args.players), file=sys.stderr)
    return 0 if summary["actions"] or not summary["errors"] else 1


#: When the server turns bots away for its per-address limits (SPEC §13: say so in one line, and how).
LIMITS_LINE = N_("spider bots: the server turned {n} connections of {players} bots away for its per-address limits "
               "(HTTP 429); for a load test start one with room for them, e.g. "
               "`spider server --per-address 5000 --names-per-hour 10000 --address-rate 100000`.")
