"""``spider --describe`` without a terminal (SPEC §17): each typed line's answer, word for word,
on the same Table and session the full-screen app uses."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from spider_tui.describe import LINE_LIMIT, Describer
from spider_tui.engine import Game
from spider_tui.session import SoloSession
from spider_tui.store import default_data, summary
from spider_tui.store.rounds import latest_round
from tests.positions import NEARLY_WON

# Column 2's 8♠ goes onto column 1's 9♠ and turns up column 2's hidden 5♥; column 3 is empty.
SMALL = """\
suits: 2
stock: 2s 3s 4s 5s 6s 7s 8s 9s Ts Js
1: Kh | 9s
2: 5h | 8s
3: |
4: | Ah
5: | 2s
6: | 3s
7: | 4s
8: | 5s
9: | 6s
10: | 7s
"""


class Store:
    def __init__(self) -> None:
        self.data = default_data()

    def write(self, change, after=None) -> None:
        change(self.data)
        if after is not None:
            after()


def make(position: str | None = None, deal: int = 42, suits: int = 2, ascii: bool = False):
    store = Store()
    session = SoloSession(lambda: store.data, store.write, rng=random.Random(3))
    if position is not None:
        session.practice(position)
    else:
        session.deal(deal, suits)
    d = Describer(session, ascii=ascii, new_round=lambda: session.new_round(suits),
                  retry=lambda: session.retry())
    return d, session, store


def test_a_move_is_one_sentence_with_the_card_turned_up():
    d, _, _ = make(SMALL)
    assert d.handle("2>1") == ["8♠ from column 2 onto 9♠ in column 1. Turned up 5♥ in column 2."]
    assert d.table.game.columns[0][-1] == Game.from_text(SMALL).columns[1][-1]


def test_a_group_and_an_empty_column_are_said():
    d, _, _ = make(SMALL)
    d.handle("2>1")
    assert d.handle("1>3") == ["9♠ to 8♠ (2 cards) from column 1 into the empty column 3. Turned up K♥ in column 1."]


def test_a_refused_move_says_why_in_one_line_and_changes_nothing():
    d, _, _ = make(SMALL)
    before = d.table.game.to_text()
    assert d.handle("4>1") == ["An Ace goes on a 2."]
    assert d.handle("3>1") == ["Column 3 is empty."]
    assert d.handle("2>2") == ["A group can't move onto its own column."]
    assert d.handle("12>1") == ["Columns are numbered 1 to 10."]
    assert d.handle("d") == ["Fill every empty column before dealing."]
    assert d.table.game.to_text() == before
    assert d.table.moves == 0
    assert d.handle("l") == ["No move yet."]


def test_an_unreadable_command_says_how_to_write_one():
    d, _, _ = make(SMALL)
    before = d.table.game.to_text()
    assert d.handle("move it") == ["Can't read 'move it': write a move like 3>7, 3>7:2, deal or joker>4."]
    assert d.handle("") == ["Type a move like 3>2, or h for help."]
    assert d.handle("c") == ["Which column? Type c and a number from 1 to 10, like c 3."]
    assert d.handle("c 11") == ["Which column? Type c and a number from 1 to 10, like c 3."]
    assert d.handle("c ٣") == ["Which column? Type c and a number from 1 to 10, like c 3."]
    assert d.handle("x" * (LINE_LIMIT + 1)) == ["That line is too long to be a command. Type h for help."]
    assert d.table.game.to_text() == before


def test_control_characters_typed_never_reach_the_terminal():
    d, _, _ = make(SMALL)
    [line] = d.handle("\x1b]0;PWNED\x07")
    assert "\x1b" not in line and "\x07" not in line
    assert "\\x1b" in line


def test_read_outs_column_table_stock_last():
    d, _, _ = make(SMALL)
    assert d.handle("c 1") == ["Column 1: 1 face down, then 9♠."]
    assert d.handle("c 3") == ["Column 3: empty."]
    assert d.handle("c 4") == ["Column 4: A♥."]
    lines = d.handle("t")
    assert len(lines) == 10
    assert lines[0] == "Column 1: 9♠; 1 face down, 1 face up."
    assert lines[2] == "Column 3: empty."
    assert d.handle("s") == ["Stock: 1 deal left. Runs done: 0. Moves: 0."]
    d.handle("2>1")
    assert d.handle("l") == ["8♠ from column 2 onto 9♠ in column 1. Turned up 5♥ in column 2."]
    assert d.handle("c 1") == ["Column 1: 1 face down, then 9♠ 8♠."]
    assert d.handle("s") == ["Stock: 1 deal left. Runs done: 0. Moves: 1."]


def test_a_deal_says_the_row_column_one_first():
    d, _, _ = make(deal=42)
    g = Game.new(42, suits=2)
    row = g.play("deal").dealt
    [line] = d.handle("d")
    cards = " ".join(d.card(c) for c in row)
    assert line == f"Dealt a row: {cards}. 4 deals left."


def test_the_hint_is_the_engine_hint_said_as_a_sentence():
    d, _, _ = make(deal=42)
    move = Game.new(42, suits=2).hint()
    assert move is not None and not move.is_deal
    [line] = d.handle("?")
    assert line.startswith("Hint: ") and line.endswith(f"from column {move.source + 1} onto "
                                                        f"{d.card(d.table.game.columns[move.target][-1])}"
                                                        f" in column {move.target + 1}.")
    assert d.table.hints_used == 1
    assert d.table.moves == 0  # a hint plays nothing


def test_undo_says_what_it_took_back():
    d, _, _ = make(SMALL)
    before = d.table.game.to_text()
    d.handle("2>1")
    assert d.handle("u") == ["Undone: 8♠ from column 2 onto 9♠ in column 1."]
    assert d.table.game.to_text().split("moves:")[0] == before.split("moves:")[0]
    assert d.handle("u") == ["Nothing to undo."]


def test_a_win_is_said_and_recorded():
    d, session, store = make(NEARLY_WON)
    [line] = d.handle("2>1")
    assert line.startswith("A♠ from column 2 onto 2♠ in column 1. A run of ♠ is complete in column 1")
    assert "Won: 151 moves" in line
    assert d.handle("s") == ["Stock: 0 deals left. Runs done: 8 (♠ ♠ ♠ ♠ ♠ ♠ ♠ ♠). Moves: 151."]
    assert d.handle("u") == ["The round is over: no undo. Type n for a new deal or r to retry."]
    assert session.recorded


def test_a_round_in_progress_is_kept_and_new_asks_first():
    d, session, store = make(deal=42)
    d.handle("d")
    assert latest_round(store.data) is not None  # kept for Continue, as the app keeps it
    [question] = d.handle("n")
    assert question.startswith("Start a new deal?") and question.endswith("Type y to confirm, anything else to go on.")
    assert d.handle("no") == ["Nothing changed; the round goes on."]
    assert d.table.deal_number == 42
    d.handle("n")
    lines = d.handle("y")
    assert d.table.deal_number != 42
    assert lines[0].startswith(f"Deal {d.table.deal_number}, 2 suits.")
    assert summary(store.data)["suits"]["2"]["played"] == 1


def test_retry_without_a_move_asks_nothing():
    d, _, _ = make(deal=42)
    lines = d.handle("r")
    assert lines[0] == "Deal 42, 2 suits. Type h for help."
    assert len(lines) == 12  # the name, ten columns, the stock


def test_ascii_suits():
    d, _, _ = make(SMALL, ascii=True)
    assert d.handle("2>1") == ["8S from column 2 onto 9S in column 1. Turned up 5H in column 2."]


def test_quit_keeps_the_round():
    d, _, _ = make(deal=42)
    d.handle("d")
    assert d.handle("q") == ["The round is kept: spider --describe continues it."]
    assert d.done


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from(["1>2", "3>4", "5>1", "2>7", "d", "u", "?", "t", "s", "l", "c 3", "zz", "9>9",
                                 "6>10:2", "4>8", "7>3", "10>5", "8>6"]), max_size=30))
def test_every_answer_is_lines_of_text_and_the_table_stays_the_rules(commands):
    """Whatever is typed, each answer is one or more non-empty lines without a control character,
    and the position is one the engine reaches by the same moves (nothing is invented)."""
    d, _, _ = make(deal=7)
    for command in commands:
        lines = d.handle(command)
        assert lines and all(line and line.isprintable() for line in lines)
        Game.from_text(d.table.game.to_text())  # a position the engine reads back


def test_undoing_a_deal_says_the_row_went_back():
    d, _, _ = make(deal=42)
    d.handle("d")
    assert d.handle("u") == ["Undone: the deal. Its row is back in the stock."]
    assert d.handle("s") == ["Stock: 5 deals left. Runs done: 0. Moves: 0."]


def test_a_refused_move_is_said_in_the_language_spoken():
    """The engine's refusal reaches the reader in German when German is spoken (by its code)."""
    from spider_tui.i18n import set_language

    d, _, _ = make(SMALL)
    set_language("de")
    try:
        assert d.handle("3>1") == ["Spalte 3 ist leer."]
        assert d.handle("4>1") == ["Ein Ass gehört auf eine 2."]
    finally:
        set_language("en")
