"""SPEC §3: position notation and its errors."""

import pytest

from spider_tui.engine import Game, PositionError

SAMPLE = """\
# a comment line
suits: 2
rules: classic
deal: 1234
moves: 17

stock: 7h 2s Ks 9h 4s Qh Ah 3s 5h Ts   # next deal, column 1 first
done: s h
1: Qh 3s 7h | 9s 8s
2: | Kh
3: |
4: |
5: |
6: |
7: |
8: |
9: |
10: 5s | 4h
"""


def test_reads_the_spec_example():
    g = Game.from_text(SAMPLE)
    assert g.suits == 2 and g.deal_number == 1234 and g.moves == 17
    assert g.deals_left == 1 and g.done == [0, 1]
    assert g.down[0] == 3 and len(g.columns[0]) == 5 and g.columns[2] == []
    assert g.card_count() == 5 + 1 + 2 + 10 + 26


def test_canonical_output_and_round_trip():
    g = Game.from_text(SAMPLE)
    text = g.to_text()
    assert text.splitlines()[:6] == [
        "suits: 2", "rules: classic", "deal: 1234", "moves: 17",
        "stock: 7h 2s Ks 9h 4s Qh Ah 3s 5h Ts", "done: s h",
    ]
    assert "1: Qh 3s 7h | 9s 8s" in text and "2: | Kh" in text and "3: |" in text
    assert Game.from_text(text).to_text() == text


def test_empty_stock_and_done_written_as_dash():
    g = Game.from_text("1: | Ks")
    assert "stock: -" in g.to_text() and "done: -" in g.to_text()
    assert "deal:" not in g.to_text()


def test_ten_as_10_is_read():
    g = Game.from_text("suits: 4\n1: | 10h")
    assert "1: | Th" in g.to_text()


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("suits: 4\n1: | Xs", 2, "unknown token 'Xs'"),
        ("suits: 2\n1: | 5d", 2, "no d cards"),
        ("suits: 4\n1: | 5d 5d\n2: | 5d", 3, "appears 3 times"),
        ("suits: 4\n1: 4c 5c |", 2, "no face-up card"),
        ("suits: 4\nstock: 2c 3c 4c", 2, "not a whole number of deals"),
        ("suits: 3", 1, "suits must be 1, 2 or 4"),
        ("colour: red", 1, "unknown line"),
        ("suits: 4\n11: | 5c", 2, "no column 11"),
        ("suits: 4\n1: | 5c\n1: | 6c", 3, "given twice"),
        ("suits: 4\ndone: x", 2, "unknown token 'x'"),
        ("moves: many", 1, "wants a number"),
        ("rules: chaos", 1, "unknown rules"),
        ("suits: 4\ndone: s s s\n", 2, "appears 3 times"),
    ],
)
def test_errors_name_the_line_and_the_fault(text, line, words):
    with pytest.raises(PositionError) as e:
        Game.from_text(text)
    assert e.value.line == line
    assert str(e.value).startswith(f"line {line}: ")
    assert words in str(e.value)


def test_suits_inferred_when_missing():
    assert Game.from_text("1: | 5s").suits == 1
    assert Game.from_text("1: | 5h").suits == 2
    assert Game.from_text("1: | 5c").suits == 4


def test_partial_position_won_when_table_and_stock_empty():
    g = Game.from_text("suits: 1\ndone: s")
    assert g.won
