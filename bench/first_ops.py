"""Bytecodes executed and functions called up to the first full frame: spider against the minimal app.

    python bench/first_ops.py [--profile OUT_PREFIX]

Each program runs in a pty (``ptyterm.Term``, 100×30) under a tracer that counts every opcode
(``sys.settrace`` with ``f_trace_opcodes``; slow, so no times are taken from it) until the
first ``App._display`` of a whole screen (spider's table, the minimal app's screen), then
exits.  Unlike a time, the count hardly changes with the machine's load, so one change can be
weighed on a busy machine.  ``--profile`` runs each under cProfile instead and writes
``OUT_PREFIX.spider.prof`` and ``OUT_PREFIX.minimal.prof`` (``python -m pstats``).
Imports are from a shared ``.pyc`` cache (the first run of each fills it), as in ``run.py``;
``-P`` keeps the working directory off ``sys.path``, so ``PYTHONPATH=/a/base/tree`` measures
that tree.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ptyterm import Term  # noqa: E402

CHILD = r'''
import os, sys
mode, out, which = sys.argv[1], sys.argv[2], sys.argv[3]
count = [0]
if mode == "prof":
    import cProfile
    prof = cProfile.Profile()
    prof.enable()
else:
    def trace(frame, event, arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        return opcode
    def opcode(frame, event, arg):
        if event == "opcode":
            count[0] += 1
        return opcode
    sys.settrace(trace)
    import threading
    threading.settrace(trace)
import textual.app
display = textual.app.App._display
def first_display(self, screen, renderable):
    display(self, screen, renderable)
    if renderable is not None and (which == "minimal" or type(screen).__name__ == "GameScreen"):
        sys.settrace(None)
        if mode == "prof":
            prof.disable()
            prof.dump_stats(out)
        with open(out + ".count", "w") as f:
            f.write(str(count[0]))
        os._exit(0)
textual.app.App._display = first_display
if which == "minimal":
    import runpy
    sys.argv = [MINIMAL]
    runpy.run_path(MINIMAL, run_name="__main__")
else:
    sys.argv = ["spider", "--deal", "1", "--suits", "1"]
    from spider_tui.cli import main
    main()
'''


def run(which: str, mode: str, out: str, tmp: Path) -> int:
    env = {"SPIDER_DATA_DIR": str(tmp / f"data-{which}"), "PYTHONPYCACHEPREFIX": str(tmp / "pyc"),
           "PYTHONDONTWRITEBYTECODE": ""}
    os.makedirs(env["SPIDER_DATA_DIR"], exist_ok=True)
    code = CHILD.replace("MINIMAL", repr(str(HERE / "minimal_app.py")))
    for _ in range(2):  # the first fills the .pyc cache
        t = Term([sys.executable, "-P", "-c", code, mode, out, which], 100, 30, env)
        end = time.monotonic() + 300
        while time.monotonic() < end and t.read(1.0) != -1:  # until it exits at its first frame
            pass
        t.close(None)
    return int(Path(out + ".count").read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", metavar="OUT_PREFIX", help="cProfile instead of counting opcodes")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        counts = {}
        for which in ("minimal", "spider"):
            out = f"{args.profile}.{which}.prof" if args.profile else str(tmp / which)
            counts[which] = run(which, "prof" if args.profile else "ops", out, tmp)
    if args.profile:
        print(f"profiles: {args.profile}.minimal.prof, {args.profile}.spider.prof")
        return
    sp, mi = counts["spider"], counts["minimal"]
    print(f"bytecodes to the first full frame: spider {sp / 1e6:.2f} M, minimal {mi / 1e6:.2f} M, "
          f"spider ÷ minimal {sp / mi:.2f} ×")


if __name__ == "__main__":
    main()
