"""Command line (SPEC §9): ``spider [options]``, ``spider show N``, ``spider stats``.

Bad arguments exit with status 2 and a one-line reason, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys

from spider_tui import __version__, cli_args
from spider_tui.i18n import N_, _


# Shared with the other commands (spider server, solve, web); the old names stay importable here.
UsageError = cli_args.UsageError
_Parser = cli_args.Parser
_deal_number = cli_args.deal_number
_suits = cli_args.suits


def show_parser() -> _Parser:
    p = _Parser(prog="spider show", description=_("Print deal N in position notation."))
    p.add_argument("number", type=_deal_number, metavar="N", help=_("deal number 1..2147483647, or a Palast deal code p-…"))
    p.add_argument("--suits", type=_suits, default=1, metavar="{1,2,4}", help=_("suit count (default 1)"))
    return p


def cmd_show(argv: list[str]) -> int:
    from spider_tui.engine import Game

    args = show_parser().parse_args(argv)
    sys.stdout.write(Game.new(args.number, suits=args.suits).to_text())
    return 0


def _data_dir_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", metavar="DIR", help=_("where save.toml lives (default: the user data dir; env SPIDER_DATA_DIR)"))


def stats_parser() -> _Parser:
    p = _Parser(prog="spider stats", description=_("Print the stats."))
    p.add_argument("--json", action="store_true", help=_("print them as JSON for scripts"))
    _data_dir_arg(p)
    return p


def cmd_stats(argv: list[str]) -> int:
    from spider_tui.store import SaveError, SaveFile, resolve_data_dir, save_path, stats_json, stats_table

    args = stats_parser().parse_args(argv)
    save = SaveFile(save_path(resolve_data_dir(args.data_dir)))
    try:
        data = save.read()  # a read-only command: the file is never moved or written
    except SaveError as e:
        error_line(str(e))
        return 1
    notice = save.take_notice()
    if notice:
        error_line(notice)
    if args.json:
        print(stats_json(data))
    else:
        from rich.console import Console

        from spider_tui.store.report import special_rules

        console, ascii = Console(), not _can_draw_suits()
        with console.capture() as capture:
            console.print(stats_table(data, ascii=ascii))
            for rules in special_rules(data):  # special rules keep their own stats (SPEC §10)
                console.print(stats_table(data, rules=rules, ascii=ascii))
        # Rich pads every line to the table's width: no trailing blanks in a file or a pipe.
        sys.stdout.write("".join(_rstrip_line(line) for line in capture.get().splitlines(keepends=True)))
    return 0


def _rstrip_line(line: str) -> str:
    """A printed line without the blanks at its end (before any closing colour reset)."""
    import re

    body = line.rstrip("\n")
    body = re.sub(r"[ ]+((?:\x1b\[[0-9;]*m)*)$", r"\1", body)
    return body + ("\n" if line.endswith("\n") else "")


def _can_draw_suits() -> bool:
    """Unicode glyphs for this terminal and locale (see spider_tui.terminal)."""
    import os

    from spider_tui.terminal import wants_ascii

    return not wants_ascii(os.environ, getattr(sys.stdout, "encoding", None) or "ascii")


def _rules_help() -> str:
    from spider_tui.engine.rules import RULE_OPTIONS

    options = ", ".join(f"{o.word} ({_(o.help)})" for o in RULE_OPTIONS)
    return _("the rules: classic (the default), or options joined by +: {options}; spiderette or simple-simon "
             "for the one-deck games; classic-scorpion for Scorpion with every card face up (the Palast's is "
             "scorpion); e.g. --rules relaxed+joker").format(options=options)


RULES_HELP = _rules_help()  # in English (the language at import); the parser asks _rules_help() again


#: Every subcommand and what it does (``spider --help`` lists them; ``spider CMD --help`` says more).
COMMANDS = (
    ("show", N_("print deal N in position notation")),
    ("stats", N_("print the stats (--json for scripts)")),
    ("solve", N_("ask the solver whether a deal or position can be won")),
    ("replay", N_("watch a round again: spider replay [FILE | last | N]")),
    ("export", N_("print a round's record: spider export [last | N]")),
    ("import", N_("add a record file: spider import FILE")),
    ("web", N_("serve the game to a browser tab")),
    ("server", N_("run a Palast: live tables over WebSocket")),
    ("league", N_("print a Palast's league")),
    ("bots", N_("run bot players at a Palast's tables")),
)


def commands_text() -> str:
    """The commands as ``spider --help`` lists them, one a line."""
    return "\n".join(f"  spider {name:<8} {_(what)}" for name, what in COMMANDS)


def app_parser() -> _Parser:
    p = _Parser(
        prog="spider",
        description=(_("Spider Solitaire for the terminal.") + "\n\n"
                     + _("commands (`spider CMD --help` for each):") + "\n" + commands_text()),
        epilog=_("In the game, F1 shows the rules and every key (q: back to the menu, Ctrl+Q: quit)."),
        formatter_class=cli_args.RawDescriptionWholeWords,
    )
    p.add_argument("--version", action="version", version=f"spider {__version__}",
                   help=_("show program's version number and exit"))
    p.add_argument("--suits", type=_suits, metavar="{1,2,4}", help=_("suit count for this round"))
    g = p.add_mutually_exclusive_group()
    g.add_argument("--deal", type=_deal_number, metavar="N", help=_("play deal N (1..2147483647, or a Palast deal code p-…)"))
    g.add_argument("--daily", nargs="?", const="today", metavar="YYYY-MM-DD", help=_("play the daily deal (today by default)"))
    g.add_argument("--position", metavar="FILE", help=_("practice from a position in notation"))
    g.add_argument("--server", metavar="URL", help=_("straight to the Palast lobby at URL (ws://host:port)"))
    g.add_argument("--ghost", metavar="FILE|last|N", help=_("race a record (a file, your last, or your Nth newest) as a ghost"))
    p.add_argument("--rules", default=None, metavar="NAME", help=_rules_help())
    p.add_argument("--ascii", action="store_true", help=_("draw suits as S H D C and ASCII card backs"))
    p.add_argument("--four-color", action="store_true", help=_("a colour for each suit"))
    p.add_argument("--no-mouse", action="store_true", help=_("don't capture the mouse"))
    p.add_argument("--describe", action="store_true",
                   help=_("play as a stream of lines for a screen reader: typed moves, one sentence per "
                          "action (also when TERM=dumb)"))
    _data_dir_arg(p)
    return p


POSITION_LIMIT = 1 << 20
"""A position file is read only up to 1 MB: a whole deal is about 400 bytes."""


def read_position_file(path: str) -> str:
    """The text of the position file ``path``: a regular file of at most 1 MB, UTF-8 (a BOM is fine).

    Opened without blocking (a FIFO would wait for a writer forever) and refused unless it is a
    regular file (``/dev/zero`` would be read until memory runs out).  Raises UsageError.
    """
    def fail(reason: str) -> UsageError:
        return UsageError(_("argument --position: can't read {path}: {reason}").format(path=path, reason=reason))

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise fail(e.strerror or str(e)) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise fail(_("not a regular file"))
        try:
            raw = f.read(POSITION_LIMIT + 1)
        except OSError as e:
            raise fail(e.strerror or str(e)) from None
    if len(raw) > POSITION_LIMIT:
        raise fail(_("larger than 1 MB; a position is a few hundred bytes"))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise fail(_("not UTF-8 text")) from None


def parse_app_args(argv: list[str], today=None):
    """Parse and check ``spider [options]``; returns (args, Launch).  Raises UsageError."""
    from spider_tui.ui_launch import Launch

    args = app_parser().parse_args(argv)
    daily = None
    if args.daily is not None:
        from spider_tui.store import check_daily, parse_daily
        from spider_tui.store import today as real_today

        now = (today or real_today)()
        if args.daily == "today":
            daily = now
        else:
            try:
                daily = parse_daily(args.daily)
            except ValueError as e:
                raise UsageError(_('argument --daily: {e}').format(e=e)) from None
        reason = check_daily(daily, now)
        if reason:
            raise UsageError(_('argument --daily: {reason}').format(reason=reason))
    position = None
    if args.position is not None:
        from spider_tui.engine import Game

        position = read_position_file(args.position)
        try:
            Game.from_text(position)
        except ValueError as e:
            raise UsageError(_('argument --position: {position}: {e}').format(position=args.position, e=e)) from None
    rules = None
    if args.rules is not None:
        from spider_tui.engine import rules_named

        try:
            rules = rules_named(args.rules).name
        except KeyError as e:
            raise UsageError(_('argument --rules: {value}').format(value=e.args[0])) from None
    if args.server is not None and not (args.server.startswith(("ws://", "wss://")) and len(args.server) > 6
                                        and args.server.isprintable()):
        raise UsageError(_("argument --server: a Palast address looks like ws://127.0.0.1:8765"))
    ghost = None
    if args.ghost is not None:
        from spider_tui.records_cli import load

        ghost = load(args.ghost, args.data_dir, "spider --ghost")[0]
    launch = Launch(
        server=args.server, lang=args.lang, ghost=ghost,
        suits=args.suits, deal=args.deal, daily=daily, position=position, rules=rules,
        ascii=args.ascii or not _can_draw_suits(), four_color=args.four_color,
    )
    return args, launch


def cmd_app(argv: list[str], replay=None) -> int:
    args, launch = parse_app_args(argv)
    launch.replay = replay
    from spider_tui.store import SaveFile, resolve_data_dir, save_path

    if args.describe or os.environ.get("TERM") == "dumb":
        from spider_tui.describe import play_lines

        return play_lines(SaveFile(save_path(resolve_data_dir(args.data_dir))), launch)
    import gc

    # No collection until the first frame is up (SpiderApp.on_mount turns them back on): the
    # app's imports and its first frame leave no garbage worth the ~20 ms the collector spent
    # walking the new modules (SPEC §11's start).
    gc.disable()
    try:
        from spider_tui.ui.app import SpiderApp

        save = SaveFile(save_path(resolve_data_dir(args.data_dir)))
        app = SpiderApp(save, launch)
    except BaseException:
        gc.enable()
        raise
    gc.freeze()  # what is loaded now lives as long as the app: keep it out of every collection
    app.run(mouse=not args.no_mouse)
    # The terminal is back: wait for the last write (a lock held by another spider may delay it).
    if not app.book.writer.idle and not app.book.writer.flush(0.5):
        error_line(_("saving the round... (the save file is busy)"))
    if not app.book.writer.close(timeout=save.lock_timeout + 2):
        error = app.book.writer.last_error
        error_line(_('{error} The last changes of this session were not saved.').format(error=error or _('The save file is still busy.')))
        return 1
    return app.return_code or 0


def cmd_replay(argv: list[str]) -> int:
    """``spider replay [FILE | last | N]``: the app, straight into the replay of a checked record."""
    p = _Parser(prog="spider replay", description=_("Watch a round again from its record."))
    p.add_argument("which", nargs="?", default="last", metavar="FILE|last|N",
                   help=_("a record file, your last record (the default), or your Nth newest"))
    p.add_argument("--ascii", action="store_true", help=_("draw suits as S H D C and ASCII card backs"))
    p.add_argument("--no-mouse", action="store_true", help=_("don't capture the mouse"))
    _data_dir_arg(p)
    args = p.parse_args(argv)
    from spider_tui.records_cli import load

    record = load(args.which, args.data_dir, "spider replay")[0]
    app_argv = [a for a, on in (("--ascii", args.ascii), ("--no-mouse", args.no_mouse)) if on]
    if args.data_dir is not None:
        app_argv += ["--data-dir", args.data_dir]
    if args.lang is not None:
        app_argv += ["--lang", args.lang]
    return cmd_app(app_argv, replay=record)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from spider_tui.i18n import choose, set_language

    set_language(choose(None, None))  # the locale's, until --lang (or the game's saved choice) says
    try:
        lang = cli_args.peek_lang(argv)  # every command's parser takes --lang too (cli_args.Parser)
        if lang is not None:
            set_language(lang)
        lead: list[str] = []  # `spider --lang de server ...`: the command is the first word after --lang
        while argv and (argv[0] == "--lang" or argv[0].startswith("--lang=")):
            n = 2 if argv[0] == "--lang" else 1
            lead, argv = lead + argv[:n], argv[n:]
        if argv and argv[0] in ("show", "stats", "solve", "server", "league", "bots", "web",
                                    "replay", "export", "import"):
            argv = argv[:1] + lead + argv[1:]
        else:
            argv = lead + argv
        if argv and argv[0] == "show":
            return cmd_show(argv[1:])
        if argv and argv[0] == "stats":
            return cmd_stats(argv[1:])
        if argv and argv[0] == "solve":
            from spider_tui.solve_cli import cmd_solve

            return cmd_solve(argv[1:])
        if argv and argv[0] in ("server", "league", "bots"):
            from spider_tui.palast import cli as palast_cli

            return getattr(palast_cli, f"cmd_{argv[0]}")(argv[1:])
        if argv and argv[0] in ("export", "import"):
            from spider_tui import records_cli

            return getattr(records_cli, f"cmd_{argv[0]}")(argv[1:])
        if argv and argv[0] == "replay":
            return cmd_replay(argv[1:])
        if argv and argv[0] == "web":
            from spider_tui.web import cmd_web

            return cmd_web(argv[1:])
        if argv and not argv[0].startswith("-"):  # the game itself takes no words, only options
            names = ", ".join(name for name, _what in COMMANDS)
            raise UsageError(_('no command {word!r}; the commands are {names} (spider --help says what each does)').format(word=argv[0], names=names))
        return cmd_app(argv)
    except UsageError as e:
        error_line(str(e), prog=getattr(e, "prog", "spider"))
        return 2
    except BrokenPipeError:  # `spider stats --json | head -c 10`: the reader left; no traceback
        _quiet_stdout()
        return 1


def error_line(message: str, prog: str = "spider") -> None:
    """``PROG: MESSAGE`` on stderr as one line; control characters shown (``\\x1b``), never sent."""
    from spider_tui.safe_text import visible

    print(f"{prog}: {visible(message, newlines=False)}", file=sys.stderr)


def _quiet_stdout() -> None:
    """After EPIPE: point stdout at /dev/null so the interpreter's final flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
