"""What the player's terminal can draw: Unicode glyphs or ASCII only (SPEC §9 ``--ascii``).

Decided from the terminal and the locale, never from Python's own encoding (its UTF-8 mode makes
``sys.stdout`` UTF-8 under ``LANG=C`` whatever the terminal can show):

- ``TERM=linux`` (the Linux console, whose font lacks most of the card glyphs) means ASCII;
- a locale that names a charset that is not UTF-8 (``de_DE.ISO-8859-1``, ``en_US.cp1252``)
  means ASCII;
- a plain ``C`` / ``POSIX`` locale alone does not: over SSH the server's locale is often ``C``
  while the player's terminal is UTF-8.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping


def locale_charset(env: Mapping[str, str]) -> str | None:
    """The charset the effective locale names (``LC_ALL`` > ``LC_CTYPE`` > ``LANG``), or None."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value:
            head = value.split("@", 1)[0]
            return head.split(".", 1)[1] if "." in head else None
    return None


def is_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return charset.lower().replace("-", "").replace("_", "") == "utf8"


def wants_ascii(env: Mapping[str, str], encoding: str | None = None) -> bool:
    """True when the terminal should get ASCII only.

    >>> wants_ascii({"TERM": "linux", "LANG": "C"}), wants_ascii({"TERM": "xterm", "LANG": "C"})
    (True, False)
    >>> wants_ascii({"TERM": "xterm", "LANG": "de_DE.ISO-8859-1"}), wants_ascii({"LANG": "en_US.UTF-8"})
    (True, False)
    """
    if env.get("TERM") == "linux":
        return True
    charset = locale_charset(env)
    if charset is not None and not is_utf8(charset):
        return True
    if encoding:
        try:
            "♠♥♦♣▲▶░⋮╭─".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            return True
    return False
