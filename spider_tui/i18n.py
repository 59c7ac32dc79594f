"""The translation layer (SPEC §17): every text a person reads passes through :func:`_`.

English is the source language: a message's English text is its gettext ``msgid``.  Other
languages come from gettext catalogs compiled into the package
(``spider_tui/locale/<lang>/LC_MESSAGES/spider.mo``, made from the ``.po`` files in the repo).
A language without a catalog, or a message a catalog lacks, reads in English.

- :func:`_` translates a message now, in the current language.
- :func:`N_` only marks a message for the catalogs (module-level tables: translate it with
  :func:`_` where it is shown, so a language chosen after import still applies).
- :func:`ngettext` for a count.
- :func:`choose` picks the language: ``--lang``, then the remembered setting, then the locale
  (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

>>> choose(None, None, {"LANG": "de_DE.UTF-8"})
'de'
>>> choose("en", "de", {"LANG": "de_DE.UTF-8"})
'en'
>>> choose(None, None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
'en'
>>> N_("Deal")
'Deal'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["LANGUAGES", "NN_", "NP_", "N_", "_", "argparse_in_language", "pgettext", "choose", "language", "ngettext", "set_language"]

DOMAIN = "spider"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "de")  # the languages the app speaks; English is the source and the default

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def _from_locale(environ: Mapping[str, str]) -> str | None:
    # POSIX order: the first of LC_ALL, LC_MESSAGES, LANG that is set decides (LANGUAGE is a GNU
    # list for programs that already chose a locale; C and POSIX mean no language: English).
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return None


def choose(explicit: str | None, setting: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``explicit`` (``--lang``), else ``setting`` (remembered), else the
    locale of ``environ`` (the process's by default), else English."""
    for lang in (explicit, setting):
        if lang in LANGUAGES:
            return lang
    return _from_locale(os.environ if environ is None else environ) or "en"


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on (English when it has no catalog)."""
    global _current, _language
    _language = lang if lang in LANGUAGES else "en"
    if _language == "en":
        _current = _gettext.NullTranslations()
        return
    _current = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)


def language() -> str:
    """The language spoken now (``"en"`` or ``"de"``)."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language (``""`` stays ``""``: gettext would give the header)."""
    return _current.gettext(message) if message else message


def N_(message: str) -> str:
    """``message`` unchanged, marked for the catalogs (translate it with :func:`_` where shown)."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` as said in ``context`` (e.g. ``"footer"``: a shorter word where room is short);
    without a translation for that context, as :func:`_` says it."""
    catalog = getattr(_current, "_catalog", None)  # GNUTranslations' own table (a miss would give message back)
    key = f"{context}\x04{message}"
    if message and catalog is not None and key in catalog:
        return catalog[key]
    return _(message)


def NP_(context: str, message: str) -> str:
    """``message`` unchanged, marked for the catalogs in ``context`` (shown with :func:`pgettext`)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """``(singular, plural)`` unchanged, marked for the catalogs as one plural message (shown with
    :func:`ngettext` or a translation's own ``ngettext``)."""
    return singular, plural


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the current language."""
    return _current.ngettext(singular, plural, n)


def argparse_in_language() -> None:
    """argparse's own words (``usage:``, ``options``, its errors) through this layer, so that
    ``--help`` and a usage error read in the language spoken (argparse looks its ``_`` up at each
    call; its texts are in the catalogs through :data:`ARGPARSE_TEXTS`)."""
    import argparse

    setattr(argparse, "_", _)
    setattr(argparse, "ngettext", ngettext)


#: The texts of the standard library's argparse that a player can see, for the catalogs.
ARGPARSE_TEXTS = (
    N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("not allowed with argument %s"), N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"), N_("one of the arguments %s is required"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"), N_("can't open '%(filename)s': %(error)s"),
)
