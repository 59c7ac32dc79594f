"""``spider solve`` (SPEC §14): could this deal or position be won?  Full-knowledge search.

    spider solve N [--suits K] [--rules R] [--seconds S] [--json]
    spider solve --position FILE [--seconds S] [--json]

``--json`` prints ``{"result": "winnable" | "not winnable" | "unknown", "moves": [...],
"seconds": t, "nodes": n}`` (``seconds``: CPU time); ``moves`` (present only when winnable) is a whole win from the
start position in SPEC §3 move text.  "not winnable" only when the search was exhaustive.
Bad arguments exit with status 2 and one line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from spider_tui import cli_args
from spider_tui.cli_args import Parser, UsageError
from spider_tui.i18n import N_, _, ngettext
from spider_tui.safe_text import visible

DEFAULT_SECONDS = 10.0
MAX_SECONDS = 24 * 3600.0
PEEKS = N_("The solver looks at the face-down cards and the stock, which a player can't see.")


def printable(text: str) -> str:
    """``text`` on one line with control characters written out (``\\x1b``): the project's
    safe-text rule, so a file name or file content can't drive the terminal."""
    return visible(text, newlines=False)


def _seconds(text: str) -> float:
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_('seconds must be a number, not {value!r}').format(value=printable(text))) from None
    if not 0 < s <= MAX_SECONDS:  # also refuses nan
        raise argparse.ArgumentTypeError(_('seconds must be more than 0 and at most {most:.0f}, not {value}').format(most=MAX_SECONDS, value=printable(text)))
    return s


def solve_parser() -> Parser:
    p = Parser(
        prog="spider solve",
        description=_("Could this be won? Searches for a whole win with full knowledge of the cards "
        "(it looks at face-down cards and the stock)."),
    )
    p.add_argument("number", nargs="?", type=cli_args.deal_number, metavar="N", help=_("deal number 1..2147483647, or a Palast deal code p-…"))
    p.add_argument("--position", metavar="FILE", help=_("solve a position in notation instead of a deal"))
    p.add_argument("--suits", type=cli_args.suits, metavar="{1,2,4}", help=_("suit count of deal N (default 1)"))
    p.add_argument("--rules", metavar="NAME", help=_("rules of deal N (default classic)"))
    p.add_argument("--seconds", type=_seconds, default=DEFAULT_SECONDS, metavar="S",
                   help=_("give up after S seconds of CPU time (default {default:g}; a busy machine doesn't change the answer)").format(
                       default=DEFAULT_SECONDS))
    p.add_argument("--json", action="store_true", help=_("print the answer as JSON for scripts"))
    return p


def _game(args):
    """The Game to solve, from the arguments; raises UsageError."""
    from spider_tui.engine import Game, rules_named
    from spider_tui.engine.solve import supported

    if args.position is not None:
        if args.number is not None:
            raise UsageError(_("give a deal number or --position FILE, not both"))
        if args.suits is not None or args.rules is not None:
            raise UsageError(_("--suits and --rules go with a deal number; a position file names its own"))
        name = printable(args.position)
        try:
            with open(args.position, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, "strerror", None) or str(e)
            raise UsageError(_("argument --position: can't read {name}: {value}").format(name=name, value=printable(reason))) from None
        try:
            game = Game.from_text(text)
        except ValueError as e:
            raise UsageError(_('argument --position: {name}: {value}').format(name=name, value=printable(str(e)))) from None
    else:
        if args.number is None:
            raise UsageError(_("give a deal number N or --position FILE"))
        rules = "classic"
        if args.rules is not None:
            try:
                rules = rules_named(args.rules).name
            except KeyError as e:
                raise UsageError(_('argument --rules: {value}').format(value=printable(e.args[0]))) from None
        game = Game.new(args.number, suits=args.suits or 1, rules=rules)
    reason = supported(game)
    if reason:
        raise UsageError(reason)
    return game


def _describe(game, args) -> str:
    if args.position is not None:
        return _("Position {name}").format(name=printable(args.position))
    extra = "" if game.rules.name == "classic" else f", {game.rules.name}"
    return ngettext("Deal {number} ({suits} suit{extra})", "Deal {number} ({suits} suits{extra})", game.suits).format(
        number=game.deal_number, suits=game.suits, extra=extra)


def cmd_solve(argv: list[str]) -> int:
    from spider_tui.engine.solve import WINNABLE, solve

    args = solve_parser().parse_args(argv)
    game = _game(args)
    # CPU time of this thread, not wall time: other programs' turns on a busy machine don't
    # count, so the same --seconds gives the same answer on a loaded machine (SPEC §14).
    start = time.thread_time()
    deadline = start + args.seconds
    found = solve(game, stop=lambda: time.thread_time() >= deadline)
    seconds = round(time.thread_time() - start, 3)
    if args.json:
        out: dict = {"result": found.result}
        if found.result == WINNABLE:
            out["moves"] = found.moves
        out["seconds"] = seconds
        out["nodes"] = found.nodes
        # What was solved (after SPEC §14's fields): a script reading many answers knows which is
        # which.  ``deal`` is null for a position that is not a numbered deal.
        out.update(deal=game.deal_number, suits=game.suits, rules=game.rules.name)
        print(json.dumps(out))
        return 0
    what = _describe(game, args)
    searched = _("{seconds:.2f} s of CPU time, {nodes:,} positions").format(seconds=seconds, nodes=found.nodes)
    if found.result == WINNABLE:
        n = len(found.moves or [])
        print(ngettext('{what}: winnable, in {n} move ({searched}).', '{what}: winnable, in {n} moves ({searched}).', n).format(
            what=what, n=n, searched=searched))
    elif found.result == "not winnable":
        print(_('{what}: not winnable: every line was searched ({searched}).').format(what=what, searched=searched))
    else:
        print(_('{what}: unknown: no win found in {seconds:g} s of CPU time ({searched}); try more --seconds.').format(what=what, seconds=args.seconds, searched=searched))
    print(_(PEEKS))
    if found.moves:
        for i in range(0, len(found.moves), 10):
            print("  " + " ".join(f"{m:>7}" for m in found.moves[i:i + 10]).rstrip())
    return 0


__all__ = ["cmd_solve", "solve_parser", "printable"]
