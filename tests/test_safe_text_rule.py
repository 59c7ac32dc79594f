"""One rule for what is safe to show in a terminal (issue 28 item 9): every printer of outside
text (``spider web``'s lines, ``spider league``'s names and errors, ``spider solve``'s) uses
``safe_text.visible``: control characters written out, never sent, never dropped in silence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.palast import cli as palast_cli
from spider_tui.safe_text import visible
from spider_tui.solve_cli import printable
from spider_tui.web import plain

HOSTILE = "\x1b]0;PWNED\x07 \x1b[2J\x9b31m name\u202e\n"


def test_every_printer_writes_the_same_escapes():
    want = "\\x1b]0;PWNED\\x07 \\x1b[2J\\x9b31m name\\u202e\\x0a"
    assert visible(HOSTILE, newlines=False) == want
    assert plain(HOSTILE) == want
    assert palast_cli._plain(HOSTILE) == want
    assert printable(HOSTILE) == want


@settings(deadline=None)
@given(st.text())
def test_the_printers_agree_on_any_text(text):
    one = visible(text, newlines=False)
    assert plain(text) == one and palast_cli._plain(text) == one and printable(text) == one
