"""The review, "Where did I lose it?" (SPEC §16): checked by replaying the solver's way with the
engine from the position the review names."""

from __future__ import annotations

import random
import threading

import pytest

from spider_tui.engine import Game
from spider_tui.engine.solve import NOT_WINNABLE, UNKNOWN, WINNABLE, Solution
from spider_tui.records import Record
from spider_tui.review import ask_here, line_of, review


def given_up(deal: int, suits: int, lo: int, hi: int) -> Record:
    """A round of random legal moves (a careless player), given up."""
    rng = random.Random(deal)
    g = Game.new(deal, suits=suits)
    acts = []
    for i in range(rng.randint(lo, hi)):
        legal = g.legal_moves()
        if not legal:
            break
        acts.append((i * 1000, str(g.play(rng.choice(legal)))))
    return Record(deal=deal, suits=suits, rules="classic", date="2026-12-01T21:30:00Z", player="t",
                  result="gave up", moves=g.moves, seconds=float(len(acts)), actions=tuple(acts))


def position_after(record: Record, k: int) -> Game:
    g = Game.new(record.deal, suits=record.suits, rules=record.rules)
    for _, move in line_of(record)[:k]:
        g.play(move)
    return g


# Deals the solver decides in a second or two of CPU (found by trying; the budget is an upper bound).
CASES = [(11, 2, 20, 60, "lost"), (8, 2, 20, 60, "still"), (15, 2, 20, 60, "still"),
         (5, 4, 5, 12, "still"), (14, 4, 5, 12, "still")]


@pytest.mark.parametrize("deal, suits, lo, hi, kind", CASES)
def test_the_named_position_is_won_by_the_solvers_way(deal, suits, lo, hi, kind):
    record = given_up(deal, suits, lo, hi)
    # CPU-bounded, so a busy machine gets the same answers; the budget is about ten times what
    # these deals need alone (1-2 s), as in a long suite run a question's CPU time has been seen
    # to stretch several times over (CI, stop 36: 11.6 s for a case that takes 1.7 s alone).
    verdict = review(record, budget=60, asker=ask_here)
    assert verdict.kind == kind, verdict.text
    assert verdict.move is not None and verdict.way
    g = position_after(record, verdict.move)
    for move in verdict.way:
        g.play(move)
    assert g.won  # the solver's way from the named position wins, by the engine
    if kind == "lost":
        line = line_of(record)
        assert verdict.losing == line[verdict.move][1]
        assert f"{verdict.move + 1} `{verdict.losing}` lost it" in verdict.text
        assert verdict.text.startswith(f"Still winnable after move {verdict.move};")
        # the replay opens where the player stood before the move that lost it
        assert verdict.step == line[verdict.move][0]


def fake(answers: dict[int, str]):
    """An asker answering by the position's move count (a stand-in for the solver, to check the search)."""
    asked: list[int] = []

    def asker(game: Game, seconds: float, cancel: threading.Event | None) -> Solution:
        asked.append(game.moves)
        result = answers.get(game.moves, UNKNOWN)
        return Solution(result, ["deal"] if result == WINNABLE else None)

    return asker, asked


def test_binary_search_asks_few_questions_and_finds_the_boundary():
    record = given_up(11, 2, 40, 40)
    n = len(line_of(record))
    boundary = 13  # winnable up to move 13, lost from 14
    asker, asked = fake({k: WINNABLE if k <= boundary else NOT_WINNABLE for k in range(n + 1)})
    verdict = review(record, asker=asker)
    assert verdict.kind == "lost" and verdict.move == boundary
    assert len(asked) <= 2 + (n - 1).bit_length()


def test_undone_moves_are_not_on_the_line():
    r = Record(deal=5, suits=1, rules="classic", date="2026-12-01T21:30:00Z", player="t", result="gave up",
               moves=1, seconds=3.0, actions=((0, "deal"), (1000, "undo"), (2000, "deal")))
    assert line_of(r) == [(2, "deal")]


def test_unknown_is_said_plainly():
    record = given_up(11, 2, 30, 30)
    asker, _ = fake({0: WINNABLE})  # everything after the start: unknown
    verdict = review(record, asker=asker)
    assert verdict.kind == "unknown" and "couldn't decide" in verdict.text and verdict.move == 0


def test_a_deal_never_winnable_is_said():
    record = given_up(11, 2, 10, 10)
    asker, _ = fake({0: NOT_WINNABLE})
    assert review(record, asker=asker).kind == "never"


def test_the_budget_bounds_the_whole_review():
    """Each question may use its whole share of CPU; all of them together stay within the budget."""
    import time

    record = given_up(11, 2, 30, 30)
    spent: list[float] = []

    def asker(game, seconds, cancel):
        began = time.thread_time()
        while time.thread_time() - began < seconds:  # burns its share, as a hard question does
            pass
        spent.append(time.thread_time() - began)
        return Solution(UNKNOWN)

    verdict = review(record, budget=0.6, asker=asker)
    assert verdict.kind == "unknown"
    assert spent and sum(spent) <= 0.6 + 0.1 * len(spent)


def test_a_won_round_has_nothing_to_review():
    r = Record(deal=5, suits=1, rules="classic", date="2026-12-01T21:30:00Z", player="t", result="won",
               moves=0, seconds=1.0)
    assert review(r).kind == "won"
