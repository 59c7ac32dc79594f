"""SPEC §4: following the hint never repeats a position, and the §4 measure rises as stated.

The measure is 2 × (same-suit joins) + (empty columns).  Between a deal, a reveal and a
completed run, every hint move raises it by at least 1, except a fill of the last empty column,
which lowers it by exactly 1.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game


def joins(g: Game) -> int:
    """Face-up neighbours where the lower card is the same suit and one rank lower."""
    n = 0
    for col, down in zip(g.columns, g.down):
        for i in range(max(down, 1), len(col)):
            if col[i - 1] == col[i] + 1:  # same suit, one rank higher in this encoding
                n += 1
    return n


def measure(g: Game) -> int:
    return 2 * joins(g) + sum(1 for c in g.columns if not c)


def position_key(g: Game) -> str:
    return "\n".join(line for line in g.to_text().splitlines() if not line.startswith("moves:"))


def random_position(number: int, suits: int, steps: int, seed: int) -> Game:
    g = Game.new(number, suits=suits)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves or g.won:
            break
        g.play(rng.choice(moves))
    return g


@settings(max_examples=60, deadline=None)
@given(
    number=st.integers(1, 2_000_000),
    suits=st.sampled_from([1, 2, 4]),
    steps=st.integers(0, 80),
    seed=st.integers(0, 10_000),
)
def test_following_the_hint_never_repeats_and_the_measure_rises(number, suits, steps, seed):
    g = random_position(number, suits, steps, seed)
    seen = {position_key(g)}
    for _ in range(1500):
        h = g.hint()
        if h is None or g.won:
            return
        before_measure, before_down, before_done = measure(g), sum(g.down), len(g.done)
        target_was_empty = not h.is_deal and not g.columns[h.target]
        g.play(h)
        key = position_key(g)
        assert key not in seen, f"the hint repeated a position after {h}"
        seen.add(key)
        if h.is_deal or sum(g.down) < before_down or len(g.done) > before_done:
            continue  # a deal, a reveal or a completed run: the measure starts over
        after = measure(g)
        source_left = bool(g.columns[h.source])
        if target_was_empty and source_left:
            assert after == before_measure - 1, f"a fill ({h}) lowers the measure by 1"
        else:
            assert after >= before_measure + 1, f"{h} must raise the measure"
    raise AssertionError("the hint did not end within 1500 moves")


def test_hint_bot_ends_on_deals_1_to_60_at_two_and_four_suits():
    for suits in (2, 4):
        for number in range(1, 61):
            g = Game.new(number, suits=suits)
            seen = set()
            while True:
                key = position_key(g)
                assert key not in seen, f"deal {number} at {suits} suits loops"
                seen.add(key)
                h = g.hint()
                if h is None or g.won:
                    break
                g.play(h)
