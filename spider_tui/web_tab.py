"""One browser tab's game: the process ``spider web`` starts for each tab (run by textual-serve).

textual-serve runs ``python -m spider_tui.web_tab --data-dir DIR [--four-color]`` with Textual's web driver;
the tab plays the same app as the terminal, on the same save file.  A tab that closes (or a
server that stops) ends the app with Textual's ``ExitApp``, not with ``q``: the unfinished round
is written then, as on quit or a dropped SSH link, so closing a tab loses nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual import messages

import spider_tui.ui.app as ui_app

from spider_tui.store import SaveFile, resolve_data_dir, save_path
from spider_tui.ui.app import SpiderApp
from spider_tui.ui_launch import Launch


def _css_paths(css_path) -> list[Path]:
    """SpiderApp's CSS files as absolute paths (Textual reads relative ones beside the subclass)."""
    paths = css_path if isinstance(css_path, list) else [css_path] if css_path else []
    return [Path(ui_app.__file__).parent / p for p in paths]


class TabApp(SpiderApp):
    """The app in a browser tab: keeps the unfinished round when the tab goes away."""

    CSS_PATH = _css_paths(SpiderApp.CSS_PATH)  # type: ignore[assignment]  # Textual takes a list

    def on_exit_app(self, message: messages.ExitApp) -> None:
        self.store_round()


def tab_args(argv: list[str]) -> tuple[Path, Launch]:
    """The save file and the launch options of one tab, from the command `spider web` gives it."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m spider_tui.web_tab",
                                description="One browser tab's game (started by `spider web`).")
    p.add_argument("--data-dir", required=True, metavar="DIR")
    p.add_argument("--four-color", action="store_true")
    p.add_argument("--lang", choices=("de", "en"))  # spider web --lang: every tab speaks it
    args = p.parse_args(argv)
    # The browser draws the suit glyphs whatever the server's locale says: never ASCII here.
    return save_path(resolve_data_dir(args.data_dir)), Launch(ascii=False, four_color=args.four_color, lang=args.lang)


def main(argv: list[str] | None = None) -> int:
    path, launch = tab_args(list(sys.argv[1:] if argv is None else argv))
    app = TabApp(SaveFile(path), launch)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
