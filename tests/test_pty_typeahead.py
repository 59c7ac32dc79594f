"""Keys typed ahead in one write, in a real pty (issue 33 item 3): ``n?`` deals a new round AND
shows that round's hint, both from the start screen and from a fresh round on the table (where
``n`` needs no question and the round is replaced at once).  The test waits for outcomes only,
so it holds on a loaded machine."""

from __future__ import annotations

import os
import re

from tests.test_pty import Pty
from tests.test_pty_newcomer import env_for, quit

DEAL_TITLE = re.compile(r"Deal (\d+)")


def title_deal(screen: str) -> str | None:
    found = DEAL_TITLE.search(screen)
    return found.group(1) if found else None


def test_n_then_question_mark_from_the_start_screen_deals_and_hints(tmp_path):
    p = Pty([], 100, 30, env_for(tmp_path))
    p.type("n?")  # in one write, before the start screen is even drawn
    p.read_until(lambda s: "Hint:" in s and "Moves: 0" in s and title_deal(s) is not None)
    quit(p)


def test_n_then_question_mark_in_a_fresh_round_deals_the_next_round_and_hints(tmp_path):
    p = Pty(["--deal", "1", "--suits", "1"], 100, 30, env_for(tmp_path))
    p.read_until(lambda s: "Deal 1 " in s and "Moves: 0" in s and "Help" in s)
    p.read(0.3)  # the round's first screen is up and idle (nothing held any more)
    assert "Hint:" not in "\n".join(p.screen.display)
    os.write(p.fd, b"n?")  # one write: New (no question at Moves: 0), then the new round's hint
    screen = p.read_until(lambda s: "Hint:" in s and title_deal(s) not in (None, "1") and "Moves: 0" in s)
    assert screen
    quit(p)
