"""What every ``spider`` command line shares: the one-line usage error and the argument types.

``spider``, ``spider server``, ``spider solve``, ``spider web`` … each parse with ``Parser``, whose
errors are a ``UsageError`` (printed as one line after the command's name, exit status 2).
"""

from __future__ import annotations

import argparse

from spider_tui.engine.cards import SUIT_COUNTS


class UsageError(Exception):
    """A bad argument: printed as one line, exit status 2, after the command it belongs to."""

    def __init__(self, message: str, prog: str = "spider") -> None:
        super().__init__(message)
        self.prog = prog


class WholeWords(argparse.HelpFormatter):
    """Help text wrapped without cutting a word at its hyphen (``simple-simon``, ``face-up``:
    a rules word must read as one)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class RawDescriptionWholeWords(argparse.RawDescriptionHelpFormatter, WholeWords):
    """The description and epilog as written (``spider --help``'s list of commands), the
    options' help wrapped as :class:`WholeWords`."""


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", WholeWords)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message, self.prog)


def deal_number(text: str) -> int | str:
    """``--deal N``: ASCII digits within the deal numbers, or a Palast deal code ``p-…`` (SPEC §2)."""
    from spider_tui.engine import MAX_DEAL, MIN_DEAL
    from spider_tui.engine.deal import parse_deal

    if text[:2].lower() == "p-":
        try:
            return parse_deal(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    if not (text.isascii() and text.isdigit()) or len(text) > 20:  # int() takes " 5", "٣", "1_000"
        raise argparse.ArgumentTypeError(f"deal number must be a whole number or a deal code 'p-…', not {text!r}")
    n = int(text)
    if not MIN_DEAL <= n <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number must be {MIN_DEAL}..{MAX_DEAL}, not {n}")
    return n


def port(text: str) -> int:
    """``--port N``: a TCP port, 0..65535 (0: the system picks a free one).

    >>> port("8765")
    8765
    """
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number, not {text!r}") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535, not {n}")
    return n


def suits(text: str) -> int:
    """``--suits K``: 1, 2 or 4."""
    if text not in tuple(map(str, SUIT_COUNTS)):
        raise argparse.ArgumentTypeError(f"suits must be 1, 2 or 4, not {text!r}")
    return int(text)
