"""Command line (SPEC §9): ``spider [options]``, ``spider show N``, ``spider stats``.

Bad arguments exit with status 2 and a one-line reason, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from spider_tui import __version__


class UsageError(Exception):
    """A bad argument: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message)


def _deal_number(text: str) -> int:
    from spider_tui.engine import MAX_DEAL, MIN_DEAL

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deal number must be a whole number, not {text!r}") from None
    if not MIN_DEAL <= n <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number must be {MIN_DEAL}..{MAX_DEAL}, not {n}")
    return n


def _suits(text: str) -> int:
    if text not in ("1", "2", "4"):
        raise argparse.ArgumentTypeError(f"suits must be 1, 2 or 4, not {text!r}")
    return int(text)


def show_parser() -> _Parser:
    p = _Parser(prog="spider show", description="Print deal N in position notation.")
    p.add_argument("number", type=_deal_number, metavar="N", help="deal number, 1..2147483647")
    p.add_argument("--suits", type=_suits, default=1, metavar="{1,2,4}", help="suit count (default 1)")
    return p


def cmd_show(argv: list[str]) -> int:
    from spider_tui.engine import Game

    args = show_parser().parse_args(argv)
    sys.stdout.write(Game.new(args.number, suits=args.suits).to_text())
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "show":
            return cmd_show(argv[1:])
        if argv and argv[0] in ("--version", "-V"):
            print(f"spider {__version__}")
            return 0
        print("spider: the table is not built yet; try `spider show 1`.", file=sys.stderr)
        return 1
    except UsageError as e:
        print(f"spider: {e}", file=sys.stderr)
        return 2
