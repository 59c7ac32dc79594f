"""SPEC §14: winnable deals (proved numbers cached in the data dir) and the in-round question."""

import random
import threading

from spider_tui.engine import Game
from spider_tui.engine.solve import Solution
from spider_tui.winnable import (
    CACHE_NAME, ProvedDeals, Prover, Question, answer_text, prove_now, proves_winnable,
)


def test_proved_numbers_are_kept_per_suit_count_and_each_is_taken_once(tmp_path):
    deals = ProvedDeals(tmp_path)
    assert deals.take(1) is None
    deals.add(1, 17)
    deals.add(1, 17)
    deals.add(4, 99)
    assert ProvedDeals(tmp_path).count(1) == 1 and deals.count(2) == 0
    assert deals.take(2) is None
    assert deals.take(1) == 17 and deals.take(1) is None
    assert deals.take(4) == 99


def test_an_unreadable_cache_counts_as_empty_and_is_replaced(tmp_path):
    (tmp_path / CACHE_NAME).write_text('{"1": [0, -5, "x", 3000000000, 12], "2": "nope"')
    deals = ProvedDeals(tmp_path)
    assert deals.count(1) == 0
    (tmp_path / CACHE_NAME).write_text('{"1": [0, -5, "x", 3000000000, 12, true], "2": "nope"}')
    assert deals.load()[1] == [12] and deals.load()[2] == []
    deals.add(2, 5)
    assert deals.take(2) == 5 and deals.take(1) == 12


def test_a_deal_is_proved_by_a_win_that_replays():
    assert proves_winnable(1, 1) is True
    assert proves_winnable(2, 4, seconds=0.001) is False  # no time: not proved


def test_the_prover_counts_its_own_cpu_time_not_the_wall_clock(monkeypatch):
    """A busy machine (the wall clock racing ahead of this thread's CPU time) doesn't change
    which deals are proved: the prover stops on CPU time, as ``spider solve --seconds`` does."""
    import time

    wall = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(wall)))
    monkeypatch.setattr(time, "time", lambda: float(next(wall)))
    assert proves_winnable(1, 1) is True


def test_prove_now_returns_a_winnable_number():
    number = prove_now(1, random.Random(5))
    assert number is not None and proves_winnable(number, 1)


def test_the_prover_fills_the_cache_ahead_in_the_background(tmp_path):
    deals = ProvedDeals(tmp_path)
    prover = Prover(deals, random.Random(3))
    prover.want(1)
    try:
        for _ in range(600):
            if deals.count(1) >= 2:
                break
            threading.Event().wait(0.05)
    finally:
        prover.stop()
    assert deals.count(1) >= 2
    for number in deals.load()[1]:
        assert proves_winnable(number, 1)


def test_the_question_answers_about_its_own_copy_of_the_position():
    g = Game.new(1, suits=1)
    got = []
    done = threading.Event()
    q = Question(g, lambda found, secs: (got.append(found), done.set())).start()
    assert done.wait(60)
    assert got[0].result == "winnable"
    replay = g.copy()
    for m in got[0].moves:
        replay.play(m)
    assert replay.won and g.moves == 0 and q.game is not g
    assert answer_text(got[0], 1.0).startswith("Yes: this position can still be won")


def test_a_cancelled_question_never_answers():
    got = []
    q = Question(Game.new(2, suits=4), lambda found, secs: got.append(found))
    q.cancel()
    q.start()
    q.thread.join(30)
    assert not q.thread.is_alive() and got == []


def test_answer_texts_say_the_solver_peeked():
    for found in (Solution("not winnable"), Solution("unknown"), Solution("winnable", ["deal"])):
        text = answer_text(found, 2.0)
        assert "face-down cards and the stock" in text
    assert answer_text(Solution("unknown"), 2.0, 30).startswith("No answer")
    assert answer_text(Solution("not winnable"), 2.0).startswith("No: ")


# Issue 22 item 8: an answer belongs to the position it was asked about.
def test_an_answer_speaks_only_of_its_position_and_those_along_the_solution():
    from spider_tui.engine.solve import solve
    from spider_tui.table import Table
    from spider_tui.winnable import Answer

    tb = Table.new(5, suits=2)
    asked = tb.game.copy()
    found = solve(asked)
    assert found.result == "winnable"
    tb.take_answer(Answer(asked, found, 1.0))
    n = len(found.moves)
    assert tb.status_line.startswith(f"Yes: this position can still be won, in {n} more moves.")
    # w shows the solution's next move as the hint outline; Enter plays it; the answer follows.
    assert tb.show_solution_move() and tb.hint_move == tb.game.resolve(found.moves[0])
    tb.best_move()
    assert tb.moves == 1 and f"in {n - 1} more moves" in tb.status_line
    # Another move: the answer is about a position no longer on the table.
    tb.undo()
    other = next(m for m in tb.game.legal_moves() if str(m) != found.moves[0] and not m.is_deal)
    tb.play(other)
    assert "can still be won" not in tb.status_line and not tb.show_solution_move()
    tb.undo()  # back to the position asked about: the answer is true again
    assert f"in {n} more moves" in tb.status_line
    # A "no" about the start is dropped as soon as a move is made (it stayed 38 undos later).
    no = Table(Game.new(7, suits=2))
    no.take_answer(Answer(no.game.copy(), Solution("not winnable"), 2.0))
    assert no.status_line.startswith("No: this position can't be won")
    no.play(next(m for m in no.game.legal_moves() if not m.is_deal))
    assert no.status_line == ""


def test_a_solver_run_answers_once_unless_cancelled_first():
    import threading

    from spider_tui.winnable import SolverRun

    got: list[int] = []
    SolverRun(lambda cancel: 7, got.append).start().thread.join(10)
    assert got == [7]
    gate = threading.Event()
    run = SolverRun(lambda cancel: (gate.wait(10), 8)[1], got.append).start()
    run.cancel()
    gate.set()
    run.thread.join(10)
    assert got == [7] and run.cancelled and not run.running


def test_when_no_winnable_deal_was_found_new_looks_again(tmp_path, monkeypatch):
    """'No winnable deal found yet; try New again.': and New then looks again (it said "Still
    looking" for ever before)."""
    import random

    import spider_tui.ui.winnable_deals as wd

    class FakeApp:
        def __init__(self):
            self.said: list[str] = []

        def notify(self, text, **kw):
            self.said.append(text)

        def clear_notifications(self):
            pass

        def call_from_thread(self, fn, *args, **kw):
            return fn(*args, **kw)

    monkeypatch.setattr(wd.search, "find_winnable", lambda suits, seed, tries, seconds, cancel: None)
    monkeypatch.setattr(wd.Prover, "want", lambda self, suits: None)  # no real proving here
    app = FakeApp()
    deals = wd.WinnableDeals(app, tmp_path, random.Random(1))  # type: ignore[arg-type]
    try:
        assert deals.new_deal(4, "classic", lambda number, suits: None)
        deals._finding.thread.join(10)
        assert app.said[-1] == "No winnable deal found yet; try New again."
        assert deals.new_deal(4, "classic", lambda number, suits: None)
        deals._finding.thread.join(10)
        assert [s.split(" (")[0] for s in app.said] == ["Finding a winnable deal at 4 suits",
                                                       "No winnable deal found yet; try New again."] * 2
    finally:
        deals.stop()


def test_finding_a_winnable_deal_is_said_until_it_is_found_and_every_suit_count_is_proved_ahead(tmp_path, monkeypatch):
    """Issue 22 item 7: "Finding a winnable deal…" went after 5-8 s, before the deal came; only
    the current suit count was proved ahead."""
    import random
    import threading

    import spider_tui.ui.winnable_deals as wd

    events: list[tuple] = []

    class FakeApp:
        def notify(self, text, **kw):
            events.append(("notify", text, kw.get("timeout")))

        def clear_notifications(self):
            events.append(("clear",))

        def call_from_thread(self, fn, *args, **kw):
            return fn(*args, **kw)

    gate = threading.Event()
    monkeypatch.setattr(wd.search, "find_winnable", lambda suits, seed, tries, seconds, cancel: (gate.wait(10), 123)[1])
    wanted: list[int] = []
    monkeypatch.setattr(wd.Prover, "want", lambda self, suits: wanted.append(suits))
    deals = wd.WinnableDeals(FakeApp(), tmp_path, random.Random(1))  # type: ignore[arg-type]
    begun: list[tuple] = []
    try:
        deals.prove_ahead(2)
        assert sorted(set(wanted)) == [1, 2, 4] and wanted[-1] == 2  # every count, the current one first
        assert deals.new_deal(4, "classic", lambda number, suits: begun.append((number, suits)))
        finding = [e for e in events if e[0] == "notify" and str(e[1]).startswith("Finding a winnable deal at 4 suits")]
        assert finding and finding[0][2] >= 60  # it stays up while the solver works
        assert not begun
        gate.set()
        deals._finding.thread.join(10)
        assert begun == [(123, 4)] and events[-1] == ("clear",)  # found: the notice goes, the deal comes
    finally:
        gate.set()
        deals.stop()
