"""Share (SPEC §16): a spoiler-free line to the clipboard through the terminal's OSC 52, and
shown too, for terminals that don't take it (the player copies it from the notice)."""

from __future__ import annotations

from spider_tui.i18n import _
from spider_tui.safe_text import visible


def osc52(text: str) -> str:
    """The escape sequence that puts ``text`` on the clipboard (``ESC ] 52 ; c ; base64 BEL``).

    >>> osc52("hi")
    '\\x1b]52;c;aGk=\\x07'
    """
    import base64

    return f"\x1b]52;c;{base64.b64encode(text.encode('utf-8')).decode('ascii')}\a"


def copy(app, line: str) -> None:
    """Copy ``line`` (Textual's ``copy_to_clipboard`` writes :func:`osc52`) and show it."""
    line = visible(line, newlines=False)
    app.copy_to_clipboard(line)
    app.notify(_("Copied to the clipboard: {line}").format(line=line), timeout=10, markup=False)
