"""A same-suit join pays once per card per round (SPEC §10): the first time that card comes to
lie on the card of its own suit one rank higher, by a move, a deal or a joker; moving it off and
back pays nothing more; only undoing the action that paid makes it pay again.  So shuttling a
card between two matching cards earns nothing, and a round's join points are at most 96 × the
join value."""

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game
from spider_tui.engine.scoring import JOIN_POINTS, REVEAL_POINTS, RUN_POINTS


def pos(*column_lines: str, stock: str = "-", suits: int = 1, rules: str = "scoring") -> Game:
    lines = [f"suits: {suits}", f"rules: {rules}", f"stock: {stock}", "done: -"]
    for i in range(10):
        lines.append(f"{i + 1}: {column_lines[i] if i < len(column_lines) else '|'}")
    return Game.from_text("\n".join(lines))


def test_shuttling_a_card_between_two_matching_cards_earns_nothing():
    # The attack of issue 29: 5s between two 6s, two moves a cycle, the position identical after each.
    g = pos("| 5s", "| 6s", "| 6s", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks")
    g.play("1>2")
    assert g.score == JOIN_POINTS[1]  # the first time: it pays
    for _ in range(100):
        g.play("2>3")
        g.play("3>2")
    assert g.score == JOIN_POINTS[1]


def test_moving_off_and_back_pays_nothing_more():
    g = pos("| 5h", "| 6h", "| Kc", "| 6s", suits=4)
    g.play("1>2")
    assert g.score == JOIN_POINTS[4]
    g.play("2>1")  # off again, into the empty column
    g.play("1>4")  # onto another suit
    g.play("4>2")  # back onto its own suit
    assert g.score == JOIN_POINTS[4]


def test_undoing_the_action_that_paid_makes_it_pay_again():
    g = pos("| 5s", "| 6s", "| 6s", "| Ks")
    g.play("1>2")
    g.undo()
    assert g.score == -1  # the undo costs 1 and takes the join back
    g.play("1>2")
    assert g.score == -1 + JOIN_POINTS[1]  # pays again: the action that paid was undone


def test_undoing_a_later_action_leaves_the_card_paid():
    g = pos("| 5s", "| 6s", "| 6s", "| Ks")
    g.play("1>2")
    g.play("2>3")
    g.undo()  # the shuttle back is undone, not the join that paid
    g.play("2>3")
    assert g.score == JOIN_POINTS[1] - 1


def test_a_dealt_card_that_joins_pays_and_pays_no_more_when_moved_back():
    # The deal brings 7s onto column 1's 8s and 8s onto column 2's 9s: two joins by a deal.
    row = "7s 8s Js Js Js Js Ts Ts Ts Ts"
    g = pos("| 8s", "| 9s", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", "| Ks", stock=row)
    g.play("deal")
    assert g.score == 2 * JOIN_POINTS[1]
    g.play("1>2")  # the dealt 7s onto the dealt 8s: it has paid already
    g.play("2>1")
    assert g.score == 2 * JOIN_POINTS[1]


def test_a_card_the_joker_takes_from_the_table_keeps_having_paid():
    # 7h lies on 8h (it has paid); the joker on column 3's 8h takes that exposed 7h over.
    g = pos("| 7h", "| 8h", "| 8h", "| Kd", rules="joker+scoring", suits=4)
    g.play("1>2")  # 7h joins 8h: pays
    assert g.score == JOIN_POINTS[4]
    g.play_joker(2)  # column 3 (0-based 2): the only 7h left is the exposed one on column 2
    assert [len(c) for c in g.columns[1:3]] == [1, 2] and g.columns[2][-1] == g.columns[2][0] - 1
    assert g.score == JOIN_POINTS[4]  # no second join for the same card
    g.undo()
    assert g.score == JOIN_POINTS[4] - 1 and len(g.columns[1]) == 2


def test_a_position_read_from_text_counts_its_joined_cards_as_paid():
    g = pos("| 6s 5s", "| 6s", "| Ks")
    g.play("1>2")  # the 5s lay on its own suit already: it has paid
    assert g.score == 0
    g2 = pos("| 6s", "| 5s", "| 6s")
    g2.play("2>1")
    assert g2.score == JOIN_POINTS[1]


def test_copy_keeps_which_cards_have_paid():
    g = pos("| 5s", "| 6s", "| 6s", "| Ks")
    g.play("1>2")
    c = g.copy()
    c.play("2>3")
    assert c.score == g.score


# ------------------------------------------------------------------ properties

deal_numbers = st.integers(min_value=1, max_value=2147483647)
picks = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=300)
RULES = ["scoring", "joker+scoring", "open+scoring", "relaxed+joker+scoring", "scorpion+joker+scoring"]


def actions(g: Game):
    return g.legal_moves() + g.legal_jokers()


def lies_joined(g: Game, col: int, index: int) -> bool:
    cards = g.columns[col]
    return index >= 1 and index - 1 >= g.down[col] and cards[index - 1] == cards[index] + 1


@settings(deadline=None, max_examples=60)
@given(deal_numbers, st.sampled_from([1, 2, 4]), st.sampled_from(RULES), picks)
def test_join_points_are_bounded_and_shuttles_pay_nothing(number, suits, rules, choice):
    g = Game.new(number, suits=suits, rules=rules)
    joins = g.score  # the layout's joins (Open rules deal face up)
    for p in choice:
        options = actions(g)
        if not options:
            break
        m = options[p % len(options)]
        shuttle = False
        if not m.is_deal and not m.is_joker:
            s, k = m.source, m.count
            lead = len(g.columns[s]) - k
            dst = g.columns[m.target]
            # A card that lies on its own suit now has paid: onto another match it earns nothing.
            shuttle = lies_joined(g, s, lead) and bool(dst) and dst[-1] == g.columns[s][lead] + 1
        before = g.score
        played = g.play(m)
        gained = g.score - before
        other = len(played.turned_up) * REVEAL_POINTS[suits] + len(played.completed) * RUN_POINTS[suits]
        if g.won:
            break
        if shuttle:
            assert gained == other
        joins += gained - other
    assert 0 <= joins <= 96 * JOIN_POINTS[suits]


@settings(deadline=None, max_examples=60)
@given(deal_numbers, st.sampled_from([1, 2, 4]), st.sampled_from(RULES), picks)
def test_undo_takes_back_exactly_what_the_action_paid(number, suits, rules, choice):
    g = Game.new(number, suits=suits, rules=rules)
    for i, p in enumerate(choice):
        options = actions(g)
        if not options or g.won:
            break
        m = options[p % len(options)]
        text, score = g.to_text(), g.score
        paid = [[g.join_paid(c, i) for i in range(len(g.columns[c]))] for c in range(len(g.columns))]
        g.play(m)
        gained = g.score - score
        if i % 3 == 0 and g.undo():
            assert g.score == score - 1  # the undo's cost, and exactly what the action paid back
            assert [[g.join_paid(c, i) for i in range(len(g.columns[c]))] for c in range(len(g.columns))] == paid
            assert strip(g.to_text()) == strip(text)
            g.play(m)  # played again, it pays exactly what it paid the first time
            assert g.score == score - 1 + gained


def strip(text: str) -> str:
    return "\n".join(x for x in text.splitlines() if not x.startswith(("score:", "moves:")))
