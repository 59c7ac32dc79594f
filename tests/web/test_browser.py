"""``spider web`` in a real browser (headless Debian Chromium via Playwright): the same game,
with the browser's keys and mouse, at the browser's window size.

Set ``SPIDER_BROWSER_SCREENSHOT=screenshots/browser.png`` to keep the screenshot for the README.
"""

from __future__ import annotations

import os
import struct
import tomllib
from pathlib import Path

from .browser import BrowserTerminal, Screen
from .screen import deal_on_screen, exposed_row, find, first_card_move, shown_in_column


def new_game(term: BrowserTerminal):
    """On the start screen press ``n``; returns (screen, game, row) of a deal that has a move.
    A deal without a single move is possible, if rare: then ``n`` again, and the screen is read
    again only once it names another deal (the old one still shows ``Moves: 0`` meanwhile)."""
    term.press("n")
    s = term.wait_for("Moves: 0")
    game = deal_on_screen(s.lines)
    while first_card_move(game) is None:
        old = game.deal_number
        term.press("n")
        s = term.wait_for("Moves: 0", until=lambda s: deal_on_screen(s.lines).deal_number != old)
        game = deal_on_screen(s.lines)
    return s, game, exposed_row(s.lines, game)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_start_screen_n_click_a_card_then_its_target(browser_context, web_server, tmp_path):
    page = browser_context.new_page()
    term = BrowserTerminal(page)
    term.open(web_server.url)
    term.wait_for("New game")  # the start screen; the keyboard is the game's without a click
    before, game, row = new_game(term)
    move = first_card_move(game)
    moved_card = game.columns[move.source][-1]
    term.click(row.xs[move.source], row.y)  # pick up the exposed card
    term.click(row.xs[move.target], row.y)  # and put it on its target
    after = term.wait_for("Moves: 1")
    game.play(move)
    width = row.xs[1] - row.xs[0]
    # The card now lies in the target column, under the card it went on ...
    assert shown_in_column(after.lines, row.xs[move.target], width, moved_card, below=row.y + 1), after.text
    # ... and the card turned up in the source column is the one the engine dealt there.
    revealed = game.columns[move.source][-1]
    assert shown_in_column(after.lines, row.xs[move.source], width, revealed, below=row.y - 1), after.text
    shot = Path(os.environ.get("SPIDER_BROWSER_SCREENSHOT") or tmp_path / "spider-web.png")
    page.screenshot(path=str(shot))
    assert png_size(shot) == (1100, 700)
    print(f"\nscreenshot: {shot}\nthe browser showed:\n{after.text}")

    # Ctrl+C stops the server cleanly; the tab's round is kept, and the page says the session ended.
    assert web_server.stop() == 0
    page.wait_for_selector("body.-closed", timeout=30_000)
    rounds = tomllib.loads((web_server.data_dir / "save.toml").read_text())["rounds"]
    assert [(r["deal"], r["moves"]) for r in rounds.values()] == [(game.deal_number, 1)]
    assert "Traceback" not in web_server.output()
    page.close()


def test_double_click_the_stock_and_the_chips(browser_context, web_server):
    page = browser_context.new_page()
    term = BrowserTerminal(page)
    term.open(web_server.url)
    term.wait_for("New game")
    _, game, row = new_game(term)
    move = first_card_move(game)
    revealed = game.columns[move.source][-2]  # under the card that leaves
    term.double_click(row.xs[move.source], row.y)  # the best move for that card
    s = term.wait_for("Moves: 1")
    assert shown_in_column(s.lines, row.xs[move.source], row.xs[1] - row.xs[0], revealed, below=row.y - 1), s.text

    x, y = find(s.lines, "Deals: 5")  # the stock
    term.click(x + 1, y)
    term.wait_for("Deals: 4")
    s = term.wait_for("Moves: 2")  # a deal is a move

    x, y = find(s.lines, "Undo")  # a chip
    term.click(x + 1, y)
    term.wait_for("Deals: 5")
    s = term.wait_for("Moves: 1")  # undo takes the deal back, and the move counter with it (SPEC §1)

    x, y = find(s.lines, "New")  # the New chip asks first: a round is in progress
    term.click(x + 1, y)
    term.wait_for("Start a new deal")
    page.close()


def test_the_table_follows_the_browser_window_size(browser_context, web_server):
    page = browser_context.new_page()
    term = BrowserTerminal(page)
    term.open(web_server.url)
    term.wait_for("New game")
    big, game, _ = new_game(term)
    page.set_viewport_size({"width": 760, "height": 480})

    def laid_out_again(s: Screen) -> bool:
        if s.cols >= big.cols or s.rows >= big.rows:
            return False
        try:
            exposed_row(s.lines, game)  # all ten columns drawn inside the smaller terminal
        except AssertionError:
            return False
        return s.lines[0].rstrip().endswith("New")  # the top bar reaches the new right edge

    small = term.wait_for("Moves: 0", until=laid_out_again)
    assert small.cols < big.cols and small.rows < big.rows
    page.close()
