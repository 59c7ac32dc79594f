"""The ``spider web`` page for phones (SPEC §17), as text: the viewport, the font chosen from the
screen before the terminal is made, and textual-serve's script with the canvas renderers behind a
switch (the browser runs are in test_browser_phone.py)."""

from __future__ import annotations

from pathlib import Path

import textual_serve

from spider_tui.web import RENDERER_ADDONS, page_template, patched_script

TEMPLATE = (Path(textual_serve.__file__).parent / "templates" / "app_index.html").read_text(encoding="utf-8")
SCRIPT = (Path(textual_serve.__file__).parent / "static" / "js" / "textual.js").read_text(encoding="utf-8")


def test_the_page_has_a_viewport_and_chooses_the_font_before_the_terminal_is_made():
    page = page_template(TEMPLATE)
    head = page[:page.index("</head>")]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1' in head
    assert "touch-action: manipulation" in head  # a double tap is the game's, not a zoom
    font = page.index("el.dataset.fontSize = ")
    # The script that sets the font runs after the terminal's element exists and before the
    # page's own script makes the terminal on load; textual-serve's template is kept whole.
    assert page.index('id="terminal"') < font < page.index("</body>")
    assert 'data-font-size="{{ font_size }}"' in page


def test_the_installed_script_is_served_with_its_canvas_renderers_behind_a_switch():
    patched = patched_script(SCRIPT)
    assert patched is not None, "textual-serve's script changed: the phone page draws with its canvas again"
    assert patched.count('window.spiderRenderer!=="dom"') == 1
    assert patched.replace('(window.spiderRenderer!=="dom"&&(', "").replace(RENDERER_ADDONS[:-1] + ")),",
                                                                           RENDERER_ADDONS) == SCRIPT


def test_another_script_is_served_as_it_is():
    assert patched_script("console.log('x')") is None
