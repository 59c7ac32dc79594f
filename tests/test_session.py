"""The life of a round without a screen (SPEC §5–§8, §10): the solo session against save data."""

from __future__ import annotations

import random
from datetime import date

from hypothesis import given, settings, strategies as st

from spider_tui.engine import Game
from spider_tui.session import SoloSession, deal_rules, title_for
from spider_tui.store import SaveFile, default_data, summary
from spider_tui.store.rounds import latest_round
from spider_tui.table import Table
from tests.positions import NEARLY_WON



class Store:
    """Save data in memory, written at once (the app writes it to the file soon after)."""

    def __init__(self) -> None:
        self.data = default_data()

    def write(self, change, after=None) -> None:
        change(self.data)
        if after is not None:
            after()

    def session(self) -> SoloSession:
        return SoloSession(lambda: self.data, self.write, rng=random.Random(5))

    def played(self, suits: str = "1", rules: str = "classic") -> int:
        return summary(self.data, rules)["suits"][suits]["played"]

    def won(self, suits: str = "1") -> int:
        return summary(self.data)["suits"][suits]["won"]


def test_a_round_ended_twice_is_recorded_once():
    store = Store()
    s = store.session()
    t = s.deal(5, 1)
    assert t.deal() and s.changed() == "keep"
    s.end(won=False)
    s.end(won=False)
    assert s.recorded and store.played() == 1 and store.won() == 0


def test_a_round_without_a_move_is_not_recorded():
    store = Store()
    s = store.session()
    s.deal(5, 1)
    assert not s.counts()
    s.leave()
    s.end(won=False)
    assert store.played() == 0


def test_winning_records_a_win_once_and_the_saved_round_is_gone():
    store = Store()
    s = store.session()
    t = s.deal(77, 1)
    t.deal()
    s.keep()
    assert latest_round(store.data) is not None
    t.game = Game.from_text(NEARLY_WON)
    t.tap(1)
    t.tap(0)
    assert t.won
    assert s.changed() == "won"
    assert s.changed() == ""  # told once
    assert store.won() == 1 and store.played() == 1
    assert latest_round(store.data) is None


def test_give_up_ends_the_round_as_lost():
    store = Store()
    s = store.session()
    t = s.deal(5, 2)
    t.deal()
    assert s.give_up_question() == "Give up this round? It ends and counts as lost."
    assert s.give_up() and t.over and not t.won
    assert not s.give_up()  # it had ended
    assert store.played("2") == 1 and store.won("2") == 0


def test_practice_rules_and_practice_positions_are_not_recorded():
    store = Store()
    s = store.session()
    t = s.deal(5, 1, rules="practice")
    t.deal()
    assert not s.counts()
    assert s.end_question("new") == "Start a new deal? This practice round ends."
    assert s.give_up_question() == "Give up this round? It ends."
    s.end(won=False)
    p = s.practice(NEARLY_WON)
    assert title_for(p) == "Practice"
    p.deal()
    s.end(won=False)
    assert store.played(rules="classic") == 0 and store.played(rules="practice") == 0


def test_the_confirm_questions_of_a_recorded_round():
    s = Store().session()
    s.deal(5, 1).deal()
    assert s.needs_asking() and s.counts()
    assert s.end_question("retry") == "Retry this deal from the start? The round in progress ends and counts as played."
    assert s.end_question("new") == "Start a new deal? The round in progress ends and counts as played."


def test_daily_rounds_are_classic_whatever_the_setting():
    s = Store().session()
    t = s.daily(date(2026, 11, 29), 2)
    assert t.game.rules.name == "classic" and t.daily == date(2026, 11, 29)
    assert title_for(t) == "Daily 2026-11-29"
    assert deal_rules("scorpion", date(2026, 1, 1)) == "classic"
    assert deal_rules("scorpion", None) == "scorpion"
    assert deal_rules("no-such-rules", None) == "classic"


def test_retry_deals_the_same_deal_from_the_start():
    s = Store().session()
    t = s.deal(1234, 2)
    first = t.game.to_text()
    t.deal()
    s.end(won=False)
    again = s.retry()
    assert again is not t and again.moves == 0 and again.deal_number == 1234
    assert again.game.to_text() == first and not s.recorded


def test_continue_brings_back_the_kept_round_in_another_session():
    store = Store()
    s = store.session()
    t = s.deal(42, 2)
    t.deal()
    t.hint()
    s.keep()
    other = store.session()  # another login
    back = other.resume()
    assert isinstance(back, Table)
    assert back.game.to_text() == t.game.to_text() and back.moves == 1 and back.deal_number == 42
    assert back.hints_used == 1
    other.end(won=False)
    s.end(won=False)  # the first login ends it too: recorded once
    assert store.played("2") == 1
    assert other.resume() is None


def test_continue_in_the_same_session_keeps_the_table_and_its_undo():
    s = Store().session()
    t = s.deal(42, 1)
    t.deal()
    s.keep()
    assert s.resume() is t and t.game.can_undo


def test_an_unreadable_saved_round_is_dropped_with_a_message():
    store = Store()
    s = store.session()
    s.deal(42, 1).deal()
    s.keep()
    token, _ = latest_round(store.data)
    store.data["rounds"][token]["position"] = "suits: 9\n"
    message = store.session().resume()
    assert isinstance(message, str) and "could not be read" in message
    assert latest_round(store.data) is None


def test_starting_over_a_saved_round_counts_it_as_played():
    store = Store()
    s = store.session()
    s.deal(42, 1).deal()
    s.keep()
    other = store.session()
    assert other.start_over_question() == ("You have an unfinished round (Deal 42, 1 move). "
                                           "Start a new one? It ends and counts as played.")
    other.abandon_saved()
    other.abandon_saved()
    assert store.played() == 1 and other.start_over_question() is None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["deal", "undo", "end", "keep", "give_up", "retry", "new"]), max_size=12))
def test_every_round_is_recorded_at_most_once(steps):
    """However a round's life goes, the played count is the number of rounds ended with a move."""
    store = Store()
    s = store.session()
    s.deal(9, 1)
    expected = 0
    for step in steps:
        t = s.table
        if step == "deal":
            t.deal()
        elif step == "undo":
            t.undo()
        elif step == "keep":
            s.keep()
        elif step in ("end", "give_up"):
            if not s.recorded and t.moves > 0:
                expected += 1
            s.give_up() if step == "give_up" else s.end(won=False)
        else:
            if not s.recorded and t.moves > 0:
                expected += 1
            s.end(won=False)
            s.retry() if step == "retry" else s.new_round(1)
    assert store.played() == expected


# -- the round's life as the app drives it (these replaced Pilot tests of the same facts) ----------

def test_retry_and_new_ask_only_with_a_round_in_progress_and_a_confirmed_retry_counts_it():
    store = Store()
    s = store.session()
    t = s.deal(1, 2)
    assert not s.needs_asking()  # no move yet: New and Retry go straight on
    t.key_column(1)
    t.key_column(3)
    assert t.moves == 1 and s.needs_asking()
    s.end(won=False)  # the confirm said yes
    again = s.retry()
    assert again.deal_number == 1 and again.moves == 0
    assert store.played("2") == 1 and store.won("2") == 0


def test_new_without_a_move_records_nothing_and_deals_another_number():
    store = Store()
    s = store.session()
    s.deal(1, 2)
    s.leave()
    t = s.new_round(2)
    assert t.deal_number != 1 and t.suits == 2
    assert store.played("2") == 0


def test_continue_in_another_login_restores_position_moves_time_and_hints_without_undo():
    store = Store()
    s = store.session()
    now = [0.0]
    t = s.begin(Table(Game.new(9, suits=4), deal_number=9, clock=lambda: now[0]))
    t.resume()  # on screen: its time counts
    t.hint()
    t.deal()
    now[0] = 41.5
    s.keep()
    back = store.session().resume()
    assert isinstance(back, Table)
    assert back.game.to_text() == t.game.to_text() and back.moves == 1 and back.hints_used == 1
    assert back.seconds == 41.5 and back.deal_number == 9 and back.suits == 4
    assert back.game.undo() is False  # no undo history across logins (SPEC §7)


def test_two_live_rounds_never_count_each_other():
    store = Store()
    a, b = store.session(), store.session()
    a.deal(7, 2).deal()
    a.keep()
    b.deal(1, 2).deal()
    b.keep()
    assert store.played("2") == 0
    assert len(store.data["rounds"]) == 2  # both kept for Continue


def test_continue_of_an_old_single_round_save_keeps_its_slot(tmp_path):
    text = Game.new(5, suits=1).to_text().replace("moves: 0", "moves: 3")
    (tmp_path / "save.toml").write_text('version = 1\n[round]\nposition = """\n' + text + '"""\nsuits = 1\nmoves = 3\ndeal = 5\n')
    store = Store()
    store.data = SaveFile(tmp_path / "save.toml").load()
    s = store.session()
    t = s.resume()
    assert isinstance(t, Table) and t.deal_number == 5 and t.moves == 3
    t.deal()
    s.keep()
    assert store.played() == 0  # the continued round was not counted as lost
    assert list(store.data["rounds"]) == ["legacy"] and "round" not in store.data


def test_retry_of_a_continued_practice_round_gives_its_start_position():
    start = "suits: 4\n1: | 9h\n2: 4c | 8s\n3: | Kd\n"
    store = Store()
    s = store.session()
    t = s.practice(start)
    t.key_column(1)
    t.key_column(0)
    assert t.moves == 1
    s.keep()
    other = store.session()
    back = other.resume()
    assert isinstance(back, Table) and back.moves == 1
    again = other.retry()
    assert again.moves == 0 and again.game.to_text() == Game.from_text(start).to_text() and again.practice


def test_give_up_records_a_loss_under_the_round_s_rules():
    store = Store()
    s = store.session()
    s.deal(3, 2, rules="scorpion").deal()
    assert s.give_up()
    assert store.played("2", rules="scorpion") == 1 and store.played("2") == 0
    assert s.table.deal() is False  # nothing moves after giving up


def test_an_unfinished_daily_is_named_by_its_date():
    # Issue 22 item 18: the question said "(Deal 20261201, 1 move)", not "Daily 2026-12-01".
    store = Store()
    s = store.session()
    s.daily(date(2026, 12, 1), 1).deal()
    s.keep()
    q = store.session().start_over_question()
    assert q is not None and q.startswith("You have an unfinished round (Daily 2026-12-01, 1 move).")
