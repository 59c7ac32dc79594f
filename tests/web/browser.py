"""Driving ``spider web`` in a real browser: Debian's Chromium through Playwright (no download).

textual-serve's page draws the game with xterm.js on a canvas, so the text is not in the DOM.
An init script catches the page's xterm.js ``Terminal`` as it is created (the page stores it
as ``this.terminal``) and the screen is read from its buffer with ``page.evaluate``: exactly
what the browser shows.  Clicks go to pixel positions computed from the rendered terminal's
size and its rows and columns, so they pass through xterm.js's own mouse handling as a
player's clicks do.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
WAIT = 45.0  # seconds for the screen to show something (generous: the machine may be busy)

# Runs before the page's scripts: keep every xterm.js Terminal the page creates.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && typeof value.buffer.active === "object") {
      (window.__spiderTerminals = window.__spiderTerminals || []).push(value);
    }
  },
});
"""

READ_SCREEN = """() => {
  const t = (window.__spiderTerminals || [])[0];
  if (!t) return null;
  const buffer = t.buffer.active, lines = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(false, 0, t.cols) : "");
  }
  return {cols: t.cols, rows: t.rows, lines};
}"""


def chromium_path() -> str | None:
    """Debian's Chromium, or the one ``SPIDER_CHROMIUM`` names; None when there is none."""
    override = os.environ.get("SPIDER_CHROMIUM")
    candidates = [override] if override else [shutil.which("chromium"), "/usr/bin/chromium"]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def why_no_browser() -> str | None:
    """Why the browser tests can't run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as e:
        return f"Playwright's Python package is not installed ({e}); pip install -e '.[test]'"
    if chromium_path() is None:
        if os.environ.get("SPIDER_CHROMIUM"):
            return f"SPIDER_CHROMIUM={os.environ['SPIDER_CHROMIUM']!r} is not an executable file"
        return ("Debian's chromium is not installed (no /usr/bin/chromium); "
                ".ci/run installs it with apt-get where it can (root or sudo)")
    return None


@dataclass
class Screen:
    cols: int
    rows: int
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class BrowserTerminal:
    """One tab of the page: read its screen, press keys, click cells."""

    def __init__(self, page) -> None:
        self.page = page
        page.add_init_script(CATCH_TERMINAL)

    def open(self, url: str) -> None:
        self.page.goto(url)

    def screen(self) -> Screen | None:
        found = self.page.evaluate(READ_SCREEN)
        return None if found is None else Screen(found["cols"], found["rows"], found["lines"])

    def wait_for(self, text: str | re.Pattern[str], timeout: float = WAIT, until=None) -> Screen:
        """Wait until the screen shows ``text`` (and ``until(screen)`` holds, if given)."""
        end = time.monotonic() + timeout
        while True:
            s = self.screen()
            if s is not None and re.search(text, s.text) and (until is None or until(s)):
                return s
            if time.monotonic() > end:
                shown = s.text if s else "(no terminal on the page)"
                raise AssertionError(f"{text!r} did not show up in the browser; it shows:\n{shown}")
            time.sleep(0.05)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def cell(self, x: int, y: int) -> tuple[float, float]:
        """The pixel at the middle of cell (x, y), from the rendered terminal's size."""
        s = self.screen()
        box = self.page.locator(".xterm-screen").bounding_box()
        width, height = box["width"] / s.cols, box["height"] / s.rows
        return box["x"] + (x + 0.5) * width, box["y"] + (y + 0.5) * height

    def click(self, x: int, y: int) -> None:
        self.page.mouse.click(*self.cell(x, y))

    def double_click(self, x: int, y: int) -> None:
        self.page.mouse.dblclick(*self.cell(x, y))
