"""Issue 22 item 12: the race's feedback — a running total and place, the offline line that stays
while offline (a hint or a put-down doesn't erase it), and a word when the table ends."""

from __future__ import annotations

from types import SimpleNamespace

from spider_tui.engine import Game
from spider_tui.palast.client.session import OFFLINE_TEXT, RaceTable
from spider_tui.palast.messages import Progress, Ranked
from spider_tui.ui.palast import lines


def test_running_totals_add_this_rounds_score_to_the_last_round_over_and_rank_them():
    before = {"Ann": 300, "Bo": 340}
    totals = lines.race_totals(before, {"Ann": 60, "Bo": 0, "Cy": 10})
    assert totals == {"Ann": (360, 1), "Bo": (340, 2), "Cy": (10, 3)}
    # a player who left (a total before, no score now) keeps the total and a place
    assert lines.race_totals(before, {"Ann": 60}) == {"Ann": (360, 1), "Bo": (340, 2)}
    assert lines.race_totals(None, {"Ann": 5, "Bo": 5}) == {"Ann": (5, 1), "Bo": (5, 1)}
    assert lines.me_line(360, 1, 3).endswith("Total   360  1st of 3")
    assert "Total   340 2nd" in lines.opponent_line(Progress(player="Bo", score=0), (340, 2))
    # a house bot's line with its total fits an 80-column race screen (78 inside its padding)
    bot = Progress(player="House bot 1", score=6, runs=0, moves=2, state="playing", bot=True)
    assert len(lines.opponent_line(bot, (6, 2))) <= 78
    assert [lines.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


def test_the_final_ranking_says_you_won_or_your_place():
    ranking = [Ranked(player="Ann", total=900, place=1), Ranked(player="Bo", total=800, place=2),
               Ranked(player="Cy", total=800, place=2)]
    assert lines.final_words(ranking, "Ann") == "You won the table!"
    assert lines.final_words(ranking, "Bo") == "You placed 2nd of 3."
    assert lines.final_words([Ranked(player="A", place=1), Ranked(player="B", place=1)], "B").startswith("You won")


def test_offline_stays_on_the_status_line_through_a_hint_and_a_put_down():
    session = SimpleNamespace(offline=True, closed=False, now=lambda: 0.0, _send=lambda text: None)
    t = RaceTable(Game.new(5, suits=1, rules="scoring"), session, ends_at=600.0)  # type: ignore[arg-type]
    t.hint()
    assert t.status_line == OFFLINE_TEXT
    t.key_column(8)  # pick up, then put down: the move can't go; the line says why
    t.key_column(4)
    assert t.moves == 0 and t.status_line == OFFLINE_TEXT
    session.offline = False
    assert t.status_line != OFFLINE_TEXT


def test_the_offline_words_are_written_once():
    """Issue 28 item 9: "Offline, reconnecting…" is one text (``session.OFFLINE``) wherever the
    Palast says it: the lobby's and the race's status lines use the session's words."""
    from pathlib import Path

    from spider_tui.palast.client.session import OFFLINE

    root = Path(__file__).resolve().parents[2] / "spider_tui"
    found = [p for p in root.rglob("*.py") for _ in range(p.read_text(encoding="utf-8").count(OFFLINE))]
    assert [p.name for p in found] == ["session.py"]
    assert OFFLINE_TEXT.startswith(OFFLINE)
