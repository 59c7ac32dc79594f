"""What every ``spider`` command line shares: the one-line usage error and the argument types.

``spider``, ``spider server``, ``spider solve``, ``spider web`` … each parse with ``Parser``, whose
errors are a ``UsageError`` (printed as one line after the command's name, exit status 2).
"""

from __future__ import annotations

import argparse

from spider_tui.i18n import _
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
        from spider_tui.i18n import argparse_in_language

        argparse_in_language()  # argparse's own words ("usage:", "options") in the language spoken
        kwargs.setdefault("formatter_class", WholeWords)
        super().__init__(*args, **kwargs)
        # Every command takes --lang (``cli.main`` reads it before any parser: see take_lang).
        self.add_argument("--lang", choices=LANGS, help=_("the language: de (Deutsch) or en (English); "
                                                          "default: the saved choice, else the locale"))

    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message, self.prog)


LANGS = ("de", "en")


def peek_lang(argv: list[str]) -> str | None:
    """The ``--lang de|en`` (or ``--lang=de``) of a command line, before any parser reads it: the
    language must be known before a parser speaks (its help, its errors).  A bad value is the
    parser's to refuse.

    >>> peek_lang(["server", "--lang", "de", "--port", "1"]), peek_lang(["--lang=en"]), peek_lang(["--lang", "fr"])
    ('de', 'en', None)
    """
    lang = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value is not None:
            lang = value if value in LANGS else None
    return lang


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
        raise argparse.ArgumentTypeError(_("deal number must be a whole number or a deal code 'p-…', not {text!r}").format(text=text))
    n = int(text)
    if not MIN_DEAL <= n <= MAX_DEAL:
        raise argparse.ArgumentTypeError(_('deal number must be {low}..{high}, not {n}').format(low=MIN_DEAL, high=MAX_DEAL, n=n))
    return n


def port(text: str) -> int:
    """``--port N``: a TCP port, 0..65535 (0: the system picks a free one).

    >>> port("8765")
    8765
    """
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_('port must be a whole number, not {text!r}').format(text=text)) from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(_('port must be 0..65535, not {n}').format(n=n))
    return n


def suits(text: str) -> int:
    """``--suits K``: 1, 2 or 4."""
    if text not in tuple(map(str, SUIT_COUNTS)):
        raise argparse.ArgumentTypeError(_('suits must be 1, 2 or 4, not {text!r}').format(text=text))
    return int(text)
