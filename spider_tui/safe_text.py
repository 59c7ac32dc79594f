"""Text from outside (a file, a path, the command line, the network) made safe to show.

One rule for every place that shows such text: it is never read as Textual/Rich markup or links,
and control characters never reach the terminal; they are made visible instead, as Python writes
them (``\\x1b``, ``\\x07``, ``\\x9b``).  A newline is kept where the text may span lines.

>>> visible("p3[x]q")
'p3[x]q'
>>> visible("\\x1b]0;PWNED\\x07")
'\\\\x1b]0;PWNED\\\\x07'
>>> safe("[b]not bold[/b]").plain
'[b]not bold[/b]'
"""

from __future__ import annotations

import unicodedata

from rich.text import Text

__all__ = ["safe", "visible"]


def _shown(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return "\ufffd" if 0xD800 <= code <= 0xDFFF else f"\\u{code:04x}"


def _unsafe(ch: str, newlines: bool) -> bool:
    if ch == "\n":
        return not newlines
    category = unicodedata.category(ch)
    # Cc: C0, DEL and C1 controls (ESC, BEL, CSI...); Cs: lone surrogates (from bad file names).
    # Bidi overrides and isolates (Cf) could reorder what the player reads: shown too.
    return category in ("Cc", "Cs") or ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def visible(text: object, *, newlines: bool = True) -> str:
    """``text`` as a ``str`` with every control character written out (``\\x1b``); no markup meaning.

    ``newlines=False`` writes a newline as ``\\x0a`` too (for one-line places: titles, errors).
    """
    s = text if isinstance(text, str) else str(text)
    if s.isprintable() and "\u202e" not in s:  # fast path: nothing to do (isprintable is False for \n)
        return s
    return "".join(_shown(ch) if _unsafe(ch, newlines) else ch for ch in s)


def safe(text: object, style: str = "", *, newlines: bool = True) -> Text:
    """A plain ``rich.text.Text`` of :func:`visible` ``(text)``: shown as is, never parsed as markup."""
    return Text(visible(text, newlines=newlines), style=style, end="")
