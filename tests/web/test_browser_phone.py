"""``spider web`` on a phone (SPEC §17): headless Debian Chromium as a 390×844 touch phone
(``is_mobile``, ``has_touch``) at device scale 1, 2 and 3.  The page is laid out at the phone's
width (no zoomed-out 980-px page), nothing is wider than the screen, the font is chosen so the
compact table fills the width with cards of 12 CSS px or more, the terminal's canvas is painted
at the device's scale (not a magnified corner), and taps move cards.

Set ``SPIDER_PHONE_SCREENSHOTS=DIR`` to keep the screenshots (``phone-dpr1.png`` …).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .browser import CHROMIUM_ARGS, BrowserTerminal, chromium_path, why_no_browser
from .screen import LABEL, card_label, deal_on_screen

PHONE = {"width": 390, "height": 844}

PAGE_FACTS = """() => {
  const root = document.documentElement, term = document.querySelector(".xterm-screen");
  const canvases = [...document.querySelectorAll(".xterm-screen canvas")].filter(c => c.width > 0)
    .map(c => ({width: c.width, height: c.height, cssWidth: c.getBoundingClientRect().width,
                cssHeight: c.getBoundingClientRect().height}));
  const viewport = document.querySelector('meta[name="viewport"]');
  const rows = document.querySelector(".xterm-rows");
  const domRows = rows && rows.children.length ? [...rows.children].map(r => ({
    text: r.textContent, bottom: r.getBoundingClientRect().bottom, right: r.getBoundingClientRect().right})) : [];
  return {
    innerWidth: window.innerWidth, scrollWidth: root.scrollWidth, bodyScrollWidth: document.body.scrollWidth,
    scale: window.visualViewport ? window.visualViewport.scale : 1, dpr: window.devicePixelRatio,
    fontSize: parseFloat(document.getElementById("terminal").dataset.fontSize),
    screen: term ? term.getBoundingClientRect().toJSON() : null, canvases, domRows,
    viewport: viewport ? viewport.content : null,
  };
}"""


@pytest.fixture(scope="module")
def browser():
    reason = why_no_browser()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Phone(BrowserTerminal):
    def tap(self, x: int, y: int) -> None:
        self.page.touchscreen.tap(*self.cell(x, y))


def exposed(lines: list[str], game) -> tuple[int, list[int]]:
    """(row, x of each column) where the ten exposed cards of the fresh deal are drawn."""
    wanted = [card_label(column[-1]) for column in game.columns]
    for y, line in enumerate(lines):
        found = list(LABEL.finditer(line))
        if len(found) == 10 and all(p.fullmatch(m.group()) for p, m in zip(wanted, found)):
            return y, [m.start() for m in found]
    raise AssertionError("the dealt cards are not shown in one row:\n" + "\n".join(lines))


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_phone_gets_a_page_made_for_it_and_taps_move_cards(browser, web_server, tmp_path, scale):
    context = browser.new_context(viewport=PHONE, screen=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=scale)
    try:
        page = context.new_page()
        phone = Phone(page)
        phone.open(web_server.url)
        # The page's DOM rows are drawn a frame after the terminal's buffer has the text: the
        # screen and the page's facts are read together, once the rows show what the buffer has.
        seen: list[dict] = []

        def drawn(screen) -> bool:
            seen[:] = [page.evaluate(PAGE_FACTS)]
            rows = seen[0]["domRows"]
            return not rows or [r["text"].rstrip() for r in rows] == [line.rstrip() for line in screen.lines]

        start = phone.wait_for("New game", until=drawn)
        facts = seen[0]
        folder = Path(os.environ.get("SPIDER_PHONE_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"phone-start-dpr{scale}.png"))
        assert facts["viewport"] and "width=device-width" in facts["viewport"]
        assert facts["innerWidth"] == PHONE["width"] and facts["scale"] == 1  # laid out at the phone's width
        assert facts["scrollWidth"] <= facts["innerWidth"] and facts["bodyScrollWidth"] <= facts["innerWidth"]
        assert facts["dpr"] == scale
        assert facts["fontSize"] >= 12  # cards legible
        assert 40 <= start.cols < 80 and start.rows >= 20  # the compact table, filling the width
        assert facts["screen"]["width"] <= PHONE["width"] and facts["screen"]["width"] >= 0.9 * PHONE["width"]
        # The whole terminal is painted, at the device's scale (not a magnified top-left corner):
        # drawn with the DOM, every row shows its line and the last one ends at the bottom; drawn
        # on a canvas, the canvas has the device's pixels.
        if facts["domRows"]:
            rows = facts["domRows"]
            assert len(rows) == start.rows
            assert [r["text"].rstrip() for r in rows] == [line.rstrip() for line in start.lines]
            cell = facts["screen"]["height"] / start.rows
            assert abs(rows[-1]["bottom"] - facts["screen"]["bottom"]) <= cell
        else:
            assert facts["canvases"], "neither DOM rows nor a canvas painted"
            for c in facts["canvases"]:
                assert abs(c["width"] - c["cssWidth"] * scale) <= scale + 1, c
                assert abs(c["height"] - c["cssHeight"] * scale) <= scale + 1, c

        # Taps: New, then a card of the deal and where it goes.
        page.keyboard.press("n")
        dealt = phone.wait_for("Moves: 0")
        game = deal_on_screen(dealt.lines)
        move = next((m for m in game.legal_moves() if not m.is_deal), None)
        if move is None:
            pytest.skip("the random deal has no move between columns")  # rare; never silent
        y, xs = exposed(dealt.lines, game)
        phone.tap(xs[move.source], y)
        phone.tap(xs[move.target], y)
        after = phone.wait_for("Moves: 1")
        game.play(move)
        shot = folder / f"phone-dpr{scale}.png"
        page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}\nthe phone showed ({after.cols}×{after.rows}):\n{after.text}")
        assert page.evaluate(PAGE_FACTS)["scrollWidth"] <= PHONE["width"]
    finally:
        context.close()


def test_a_desktop_window_keeps_the_page_as_it_was(browser, web_server):
    context = browser.new_context(viewport={"width": 1100, "height": 700})
    try:
        page = context.new_page()
        term = BrowserTerminal(page)
        term.open(web_server.url)
        s = term.wait_for("New game")
        facts = page.evaluate(PAGE_FACTS)
        assert facts["fontSize"] == 16  # textual-serve's own size
        assert s.cols >= 80 and s.rows >= 24
    finally:
        context.close()


def test_a_phone_on_its_side_gets_at_least_20_rows(browser, web_server):
    # 844×390: room for 80 columns at the default font but not for 20 rows: the font follows the height.
    landscape = {"width": 844, "height": 390}
    context = browser.new_context(viewport=landscape, screen=landscape, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    try:
        page = context.new_page()
        phone = Phone(page)
        phone.open(web_server.url)
        s = phone.wait_for("New game")
        facts = page.evaluate(PAGE_FACTS)
        assert s.rows >= 20 and s.cols >= 40, (s.cols, s.rows)
        assert facts["scrollWidth"] <= landscape["width"] and facts["fontSize"] >= 12
    finally:
        context.close()
