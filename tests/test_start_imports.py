"""What a start loads (SPEC §11: start → first full frame ≤ 1.2 × the minimal Textual app, in
wall and CPU time): the modules a round's first frame needs, and not those it doesn't show.

The time itself is measured by ``bench/run.py --only start``, never here; what can't vary is which
modules ``spider``'s command line and the app's module pull in.  Each module listed below is
imported where it is used (a dialog when one opens, a record when a round ends, the Palast's
key when it starts, ...): a module-level import of one of them brings its cost back into every
start.
"""

from __future__ import annotations

import subprocess
import sys

#: Modules the first frame of a round doesn't need, and why they are loaded later.
NOT_AT_START = {
    "spider_tui.records": "a round's record: written when a round ends, read by Records and replays",
    "spider_tui.store.records": "the records/ directory: on a round's end or the Records list",
    "spider_tui.ui.widgets.dialogs": "the dialogs: when one opens",
    "spider_tui.ui.widgets.overlay": "the dialogs' frame: when one opens",
    "spider_tui.ui.screens.start_screen": "the start screen: a round from the command line never shows it",
    "spider_tui.ui.screens.records_screen": "the Records list and the replay",
    "spider_tui.replay": "the replay",
    "spider_tui.review": "the review of a record",
    "spider_tui.ghost": "a ghost race",
    "spider_tui.search": "the solver's questions",
    "spider_tui.winnable": "winnable deals",
    "spider_tui.engine.solve": "the solver",
    "spider_tui.lessons": "the lessons",
    "spider_tui.ui.palast": "the Palast's screens",
    "spider_tui.palast.client": "the Palast's client",
    "spider_tui.palast.server": "the Palast's server (a child process)",
    "spider_tui.palast.embedded": "the Palast on this computer: when the Palast is opened",
    "secrets": "the embedded Palast's key and a record file's name",
}


def test_a_start_loads_none_of_what_its_first_frame_does_not_show() -> None:
    code = ("import sys\n"
            "import spider_tui.cli, spider_tui.ui.app, spider_tui.ui.screens.game_screen\n"
            f"wanted = {sorted(NOT_AT_START)!r}\n"
            "print('\\n'.join(m for m in wanted if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.split()
    assert loaded == [], "\n".join(f"{m} is imported at start; wanted later: {NOT_AT_START[m]}" for m in loaded)
