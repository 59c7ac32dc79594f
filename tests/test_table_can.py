"""``Table.can`` and ``Session.can`` (issue 28 item 6): what the table screen may offer, answered
below the UI; the screen only maps the answer to a key (lit, dimmed, hidden)."""

from __future__ import annotations

from spider_tui.lessons.session import LessonSession
from spider_tui.session import Offer, SoloSession
from spider_tui.table import TABLE_ACTIONS, Table


def test_a_fresh_classic_round_offers_every_table_action_but_the_joker():
    t = Table.new(1, suits=1)
    assert all(t.can(a) for a in ("undo", "deal", "hint", "give_up", "still_winnable"))
    assert not t.can("joker") and not t.can("joker").dimmed and t.can("joker").reason == ""
    assert t.can("pick_or_put") and t.can("help")  # the screen's own actions: yes


def test_undo_off_refuses_undo_with_the_reason_the_key_says():
    t = Table.new(1, suits=1, rules="classic+undo-off")
    answer = t.can("undo")
    assert not answer and not answer.dimmed and answer.reason == "Undo is off in this round."
    t.play("deal")
    t.undo()
    assert t.status == answer.reason  # the table's own refusal says the same


def test_simple_simon_has_no_deal_and_no_reason_for_it():
    t = Table.new(1, suits=1, rules="simple-simon")
    assert not t.has("deal") and not t.can("deal") and t.can("deal").reason == ""


def test_jokers_all_used_are_dimmed_not_hidden_and_after_the_round_nothing_is_offered():
    t = Table.new(1, suits=1, rules="classic+joker")
    assert t.can("joker")
    t.game.jokers_left = 0
    answer = t.can("joker")
    assert not answer and answer.dimmed and answer.reason == "No jokers left."
    t.give_up()
    assert not any(t.can(a) for a in TABLE_ACTIONS)
    assert t.has("joker") and t.has("undo")


def test_a_session_offers_only_its_own_round_commands(tmp_path):
    data: dict = {}
    solo = SoloSession(lambda: data, lambda *a, **k: None)
    solo.begin(Table.new(1, suits=1))
    assert solo.can("new") and solo.can("retry") and solo.can("still_winnable")
    lessons = LessonSession(lambda: data, lambda *a, **k: None)
    lessons.table = Table.new(1, suits=1)
    assert lessons.can(Offer.NEW) and lessons.can("retry") and not lessons.can("still_winnable")
    assert lessons.next_round and not solo.next_round
    assert lessons.can("undo")  # the table's actions: the table's answer
