"""Run `spider` with experimental patches applied, to measure a proposed fix before anyone
changes spider_tui.  Used by `python bench/run.py --patch NAMES`; never by the game itself.

    python bench/variants.py --patch rows,statics -- --deal 1 --suits 1

Patches (each mirrors a fix proposed in bench/README.md; the fix belongs in spider_tui):

  rows      ColumnView.show() refreshes only the lines of the column whose text or style
            changed (Widget.refresh(Region(0, y, width, 1), ...)), not the whole column with
            its ~20 blank rows.
  statics   Static/Chip.update() is skipped when the content is unchanged, and done without
            a layout pass (layout=False) where the width can't change.
  footer    Undo is not dimmed in the footer (check_action returns True for it), so the first
            move of a round and the last undo don't recompose Textual's Footer.
  gc        gc.freeze() after the imports, before App.run(): the ~100k objects of the import
            graph leave the collector's generations, so start-up needs no full (gen 2) pass.
  gcstart   gc as above, and the collector off until 0.5 s after the game screen mounts.
"""

from __future__ import annotations

import sys


def patch_rows() -> None:
    from textual.geometry import Region

    from spider_tui.ui.widgets import ColumnView

    def show(self, state) -> None:
        if state == self.state:
            return
        if self.state is None or not self.size.height or self._picture is None:
            self.state = state
            self.refresh()
            return
        old = self.picture().text.split("\n")
        self.state = state
        new = self.picture().text.split("\n")
        width = self.size.width
        dirty = [
            Region(0, y, width, 1)
            for y in range(max(len(old), len(new)))
            if y >= len(old) or y >= len(new) or old[y] != new[y]
        ]
        if dirty:
            self.refresh(*dirty)

    ColumnView.show = show


def patch_statics() -> None:
    from textual.widgets import Static

    orig = Static.update
    no_layout = {"info", "done", "status"}
    missing = object()

    def update(self, content="", *, layout: bool = True) -> None:
        last = getattr(self, "_bench_last", missing)
        if last is not missing and last == content:
            return
        self._bench_last = content
        if self.id in no_layout:
            layout = False
        elif self.id == "stock" and last is not missing:
            layout = len(str(last)) != len(str(content))
        orig(self, content, layout=layout)

    Static.update = update


def patch_gc() -> None:
    import gc

    import spider_tui.store  # noqa: F401  the imports cmd_app does, then freeze them
    import spider_tui.ui.app  # noqa: F401

    gc.freeze()


def patch_gcstart() -> None:
    """No cyclic GC until the first frame is on screen (then a normal one, frozen)."""
    import gc

    from spider_tui.ui.game_screen import GameScreen

    patch_gc()
    gc.disable()
    orig = GameScreen.on_mount

    def on_mount(self) -> None:
        orig(self)

        def back_on() -> None:
            gc.enable()

        self.set_timer(0.5, back_on)

    GameScreen.on_mount = on_mount


def patch_footer() -> None:
    """Undo is never dimmed in the footer (the bottom bar's Undo chip still is), so the footer
    keeps the same keys from the first move to the end of the round and never recomposes."""
    from spider_tui.ui.game_screen import GameScreen

    orig = GameScreen.check_action

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        name = parameters[0] if action == "table" and parameters else action
        if name == "undo":
            return True
        return orig(self, action, parameters)

    GameScreen.check_action = check_action
    orig_sync = GameScreen.sync

    def sync(self) -> None:
        if getattr(self, "_enabled", None) is not None:
            # the footer doesn't show can_undo any more: keep it out of the "enabled" key
            g = self.table.game
            self._enabled = (g.can_undo, *self._enabled[1:])
        orig_sync(self)

    GameScreen.sync = sync


PATCHES = {"footer": patch_footer, "rows": patch_rows, "statics": patch_statics,
           "gc": patch_gc, "gcstart": patch_gcstart}


def main() -> int:
    argv = sys.argv[1:]
    names: list[str] = []
    if argv[:1] == ["--patch"]:
        names = [n for n in argv[1].split(",") if n]
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    for n in names:
        if n not in PATCHES:
            print(f"variants: unknown patch {n!r}; known: {', '.join(PATCHES)}", file=sys.stderr)
            return 2
        PATCHES[n]()
    from spider_tui.cli import main as spider_main

    sys.argv = ["spider", *argv]
    return spider_main(argv)


if __name__ == "__main__":
    sys.exit(main())
