"""Issue 20 item 1, the attack on numbered Palast deals, measured (SPEC §2 "Deal codes").

Before: a Palast round was dealt from a deal number (1 … 2^31-1).  The first ``round`` message
shows the 10 face-up cards, and only 54 steps of the FreeCell generator decide them, so anyone
can try every number: this bench takes a numbered deal's face-up row, searches a window of
numbers around it the way an attacker searches all of them, and prints how many numbers a
second one Python process tries, how many in the window show the same row (1: the row names the
deal), and the time the whole range would take here (a C search took 170–271 s on 2 cores).

After: a round is dealt from 16 CSPRNG bytes (a deal code): 2^128 possibilities, and the deck is
SHA-256 output; there is nothing to enumerate.  The bench prints that figure and checks that the
server's deals are codes (``Options().draw()`` gives 16 bytes).

    python bench/deal_search.py [--window 200000] [--suits 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from spider_tui.engine import Game, deal_code  # noqa: E402
from spider_tui.engine.cards import card_text  # noqa: E402
from spider_tui.palast.server.table import Options  # noqa: E402

MAX_DEAL = 2147483647


def face_up_ranks(number: int) -> tuple[int, ...]:
    """The 10 face-up ranks of deal ``number`` (column 1 … 10), from 54 generator steps only:
    the face-up cards are list positions 59 … 50, final once the loop has passed them."""
    cards = list(range(104))  # card k has rank k // 4 % 13 (copy, rank, slot order of §2 step 1)
    seed = number
    for i in range(104, 50, -1):
        seed = (214013 * seed + 2531011) & 0xFFFFFFFF
        j = ((seed >> 16) & 0x7FFF) % i
        cards[i - 1], cards[j] = cards[j], cards[i - 1]
    # Taken off the end: 44 face-down (positions 103 … 60), then 10 face-up: 59 → column 5, …
    row = [0] * 10
    for k in range(10):
        row[(44 + k) % 10] = cards[59 - k] // 4 % 13
    return tuple(row)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--window", type=int, default=200_000, help="numbers to try around the real one")
    ap.add_argument("--deal", type=int, default=1_234_567_891)
    args = ap.parse_args()

    g = Game.new(args.deal, suits=1)
    shown = tuple((g.columns[c][-1] & 15) - 1 for c in range(10))
    assert face_up_ranks(args.deal) == shown, "the search's shortcut must agree with the engine"
    print(f"deal {args.deal}: face-up row " + " ".join(card_text(g.columns[c][-1]) for c in range(10)))

    lo = max(1, args.deal - args.window // 2)
    hi = min(MAX_DEAL, lo + args.window)
    t0 = time.process_time()
    matches = [n for n in range(lo, hi) if face_up_ranks(n) == shown]
    cpu = time.process_time() - t0
    rate = (hi - lo) / cpu
    print(f"before (numbers): tried {hi - lo:,} numbers in {cpu:.2f} s CPU = {rate:,.0f} a second (one Python process)")
    print(f"  numbers in the window showing the same row: {len(matches)} ({'the real one' if matches == [args.deal] else matches})")
    print(f"  all 2^31 numbers: {MAX_DEAL / rate / 3600:.1f} h of CPU here in Python; split over cores it only shrinks")
    print("  (issue 20: a C search took 170-271 s on 2 cores, ~20 s on 8)")

    raw = Options().draw()
    code = deal_code(raw)
    print(f"after (deal codes): the server draws {len(raw)} bytes ({code}); 2^{8 * len(raw)} decks to name, "
          f"{2**128 / rate / 3.15e7:.1e} years at the same rate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
