"""SPEC §12: random keys and clicks never crash the app or break the card count.

Bounded for CI (2 seeds × 40 steps); ``SPIDER_FUZZ_LONG=1`` runs 6 seeds × 300 steps.
"""

from __future__ import annotations

import os
import random

import pytest

from spider_tui.ui.screens.game_screen import GameScreen

KEYS = list("1234567890") + ["d", "u", "question_mark", "escape", "enter", "space", "left", "right",
                             "up", "down", "h", "j", "k", "l", "r", "n", "y", "f1", "s", "x", "z", "tab"]


LONG = bool(os.environ.get("SPIDER_FUZZ_LONG"))
STEPS = 300 if LONG else 40


@pytest.mark.parametrize("seed", range(1, 7) if LONG else [1, 2])
async def test_random_keys_and_clicks_keep_104_cards(make_app, seed):
    rng = random.Random(seed)
    app = make_app(deal=seed * 1000 + 7, suits=(1, 2, 4)[seed % 3])
    async with app.run_test(size=(100, 30)) as pilot:
        for step in range(STEPS):
            if rng.random() < 0.6:
                await pilot.press(rng.choice(KEYS))
            else:
                x, y = rng.randrange(100), rng.randrange(29)  # not the footer: its q quits
                await pilot.click(offset=(x, y), times=rng.choice([1, 1, 1, 2]))
            if not isinstance(app.screen, GameScreen):
                await pilot.press("escape")  # leave a dialog the random input opened
            g = app.table.game
            assert g.card_count() == 104, f"step {step}"
            assert all(d < len(c) or not c for c, d in zip(g.columns, g.down))
        assert app.is_running
