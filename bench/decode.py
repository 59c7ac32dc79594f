"""Decode what a Textual app wrote to the terminal: which screen cells were repainted.

    python bench/decode.py CAPTURE.bin [--rows 30]

A capture is the raw bytes an app wrote (``bench/run.py --dump DIR`` saves them).  The
summary counts cursor moves (CUP), SGR (colour/style) sequences and cells written, and lists,
for each screen row, the column spans that were written and their text, so one can see which
widgets repainted (e.g. the footer on row 30, or whole columns of the table).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import defaultdict

TOKEN = re.compile(
    rb"\x1b\[([0-9;?<>=$]*)([@-~])"  # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1b[P_^][^\x1b]*\x1b\\"  # DCS/APC/PM
    rb"|\x1b."  # other ESC
    rb"|\r|\n"
    rb"|[^\x1b\r\n]+"
)


def width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def decode(data: bytes) -> dict:
    row = col = 1
    cups = sgrs = other_csi = osc = cells = 0
    sgr_bytes = text_bytes = 0
    spans: dict[int, list[list]] = defaultdict(list)  # row -> [[start_col, end_col, text]]
    row_bytes: dict[int, int] = defaultdict(int)  # bytes spent on each row (escapes included)
    for m in TOKEN.finditer(data):
        tok = m.group(0)
        if m.group(2) is not None and m.group(2) == b"H":
            p = m.group(1).split(b";") if m.group(1) else []
            row_bytes[int(p[0]) if p and p[0] else 1] += len(tok)
        elif tok not in (b"\r", b"\n"):
            row_bytes[row] += len(tok)
        if m.group(2) is not None:
            final, params = m.group(2), m.group(1)
            if final == b"H":
                cups += 1
                p = params.split(b";") if params else []
                row = int(p[0]) if p and p[0] else 1
                col = int(p[1]) if len(p) > 1 and p[1] else 1
            elif final == b"m":
                sgrs += 1
                sgr_bytes += len(tok)
            else:
                other_csi += 1
        elif tok.startswith(b"\x1b]"):
            osc += 1
        elif tok == b"\r":
            col = 1
        elif tok == b"\n":
            row += 1
        elif tok.startswith(b"\x1b"):
            other_csi += 1
        else:
            text = tok.decode("utf-8", "replace")
            text_bytes += len(tok)
            n = sum(width(c) for c in text)
            cur = spans[row]
            if cur and cur[-1][1] == col:
                cur[-1][1] += n
                cur[-1][2] += text
            else:
                cur.append([col, col + n, text])
            col += n
            cells += n
    return {
        "bytes": len(data), "cursor_moves": cups, "sgr": sgrs, "sgr_bytes": sgr_bytes,
        "text_bytes": text_bytes, "cells": cells, "other_escapes": other_csi, "osc": osc,
        "rows": dict(spans), "row_bytes": dict(row_bytes),
    }


def summary(data: bytes, rows: int | None = None) -> str:
    d = decode(data)
    out = [
        f"{d['bytes']} bytes: {d['cells']} cells written ({d['text_bytes']} bytes of text), "
        f"{d['cursor_moves']} cursor moves, {d['sgr']} SGR sequences ({d['sgr_bytes']} bytes), "
        f"{d['other_escapes']} other escapes, {d['osc']} OSC",
    ]
    for r in sorted(d["rows"]):
        spans = d["rows"][r]
        n = sum(e - s for s, e, _ in spans)
        shown = " | ".join(f"{s}-{e - 1}:{t.rstrip()!r}" for s, e, t in spans)
        out.append(f"  row {r:>2}: {d['row_bytes'].get(r, 0):>5} B {n:>4} cells  {shown[:140]}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    a = ap.parse_args()
    with open(a.capture, "rb") as f:
        print(summary(f.read()))


if __name__ == "__main__":
    sys.exit(main())
