"""Colours in one module (ui/colours.py): the stylesheet and the cards take them from there."""

from __future__ import annotations

import re
from pathlib import Path

import spider_tui.ui as ui
from spider_tui.ui.colours import CLOTH, css_variables
from spider_tui.ui.render import Look

UI = Path(ui.__file__).parent


def test_the_stylesheet_names_palette_colours_only():
    css = (UI / "app.tcss").read_text(encoding="utf-8")
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b", css)
    used = set(re.findall(r"\$(spider-[a-z-]+)", css))
    assert used and used <= set(css_variables(CLOTH))


def test_no_hex_colour_outside_the_palette():
    for path in UI.rglob("*.py"):
        if path.name != "colours.py":
            assert not re.search(r"\"#[0-9a-fA-F]{6}\"", path.read_text(encoding="utf-8")), path


def test_two_and_four_colours():
    two, four = Look(), Look(four_color=True)
    assert [two.suit_color(s) for s in range(4)] == [CLOTH.spades, CLOTH.hearts, CLOTH.hearts, CLOTH.spades]
    assert len({four.suit_color(s) for s in range(4)}) == 4
