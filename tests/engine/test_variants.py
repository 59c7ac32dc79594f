"""SPEC §10: rule options (Relaxed, Open, Undo off, Scorpion, Joker, Scoring, Timed/Fast, Give up,
Practice), the ``rules:`` line, and the one-deck games Spiderette and Simple Simon."""

from itertools import product

import pytest

from spider_tui.engine import DEAL, Game, IllegalMove, Move, PositionError, Rules, rules_named
from spider_tui.engine.game import JOKER

RUN_S = "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
STOCK10 = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"
KINGS = ["| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks"]


def pos(*column_lines: str, rules: str = "classic", stock: str = "-", done: str = "-", suits: int = 4,
        extra: str = "") -> Game:
    """A partial position under ``rules``: column lines in order 1.., the rest empty."""
    columns = rules_named(rules).columns
    lines = [f"suits: {suits}", f"rules: {rules}", f"stock: {stock}", f"done: {done}"]
    if extra:
        lines.append(extra)
    for i in range(columns):
        lines.append(f"{i + 1}: {column_lines[i] if i < len(column_lines) else '|'}")
    return Game.from_text("\n".join(lines))


def col(g: Game, i: int) -> str:
    """Column i (1-based) as its notation line body."""
    return next(line for line in g.to_text().splitlines() if line.startswith(f"{i}:")).split(":", 1)[1].strip()


def header(g: Game, key: str) -> str | None:
    for line in g.to_text().splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip()
    return None


# ---------------------------------------------------------------------------------------------
# Rules: names, presets, combinations


def test_classic_is_all_options_off():
    assert Rules().name == "classic" and rules_named("classic") == Rules()
    assert rules_named("spider") == Rules()


def test_canonical_spelling_orders_tokens():
    r = rules_named("undo-off+open+relaxed")
    assert r == Rules(relaxed=True, open=True, undo_off=True)
    assert r.name == "relaxed+open+undo-off"
    every = Rules(variant="spiderette", relaxed=True, open=True, undo_off=True, scorpion=True, joker=True,
                  scoring=True, timed=True, practice=True)
    assert every.name == "spiderette+relaxed+open+undo-off+scorpion+joker+scoring+timed+practice"


def test_input_is_forgiving_about_case_spaces_underscores_and_aliases():
    assert rules_named(" Scorpion + JOKER ") == Rules(scorpion=True, joker=True)
    assert rules_named("undo_off") == rules_named("no-undo") == rules_named("UndoOff") == Rules(undo_off=True)
    assert rules_named("Simple Simon").variant == "simple-simon"
    assert rules_named("simple_simon+classic") == Rules(variant="simple-simon")


def test_every_combination_round_trips_through_its_name():
    flags = ["relaxed", "open", "undo_off", "scorpion", "joker", "scoring", "timed", "fast", "practice"]
    for variant in ("spider", "spiderette", "simple-simon"):
        for bits in product([False, True], repeat=len(flags)):
            r = Rules(variant=variant, **dict(zip(flags, bits)))
            assert rules_named(r.name) == r
            assert rules_named(r) is r


def test_unknown_rules_raise_keyerror_naming_the_known_ones():
    with pytest.raises(KeyError) as e:
        rules_named("chaos")
    msg = e.value.args[0]
    assert "unknown rules 'chaos'" in msg
    for known in ("classic", "relaxed", "open", "undo-off", "scorpion", "joker", "scoring", "timed", "fast",
                  "practice", "spiderette", "simple-simon"):
        assert known in msg
    with pytest.raises(KeyError, match="unknown rules 'chaos' in 'relaxed\\+chaos'"):
        rules_named("relaxed+chaos")
    with pytest.raises(KeyError, match="two games"):
        rules_named("spiderette+simple-simon")
    with pytest.raises(KeyError):
        rules_named("")


def test_fast_is_a_timed_round_with_a_shorter_clock():
    assert Rules().countdown is None
    assert rules_named("timed").countdown == 1200
    fast = rules_named("fast")
    assert fast.timed and fast.countdown == 600 and fast.name == "fast"
    assert rules_named("timed+fast") == fast
    assert rules_named("spiderette+timed").countdown == 600
    assert rules_named("simple-simon+fast").countdown == 300


def test_practice_is_only_a_flag():
    r = rules_named("practice")
    assert r.practice and r.name == "practice"
    g = Game.new(5, rules="practice")
    assert g.to_text().replace("rules: practice", "rules: classic") == Game.new(5).to_text()


def test_bad_option_values_are_refused():
    with pytest.raises(ValueError):
        Rules(variant="klondike")
    with pytest.raises(ValueError):
        Rules(relaxed="yes")


def test_rules_line_in_notation_round_trips_and_bad_one_names_its_line():
    g = pos("| 5h", rules="relaxed+open+undo-off")
    assert header(g, "rules") == "relaxed+open+undo-off"
    g = pos("| 5h", rules="Undo-Off + Relaxed")
    assert header(g, "rules") == "relaxed+undo-off"
    with pytest.raises(PositionError) as e:
        Game.from_text("suits: 4\nrules: relaxed+chaos\n1: | 5h")
    assert e.value.line == 2 and "unknown rules" in str(e.value)


def test_game_new_takes_a_name_or_a_rules_object():
    assert Game.new(9, rules="scorpion").rules == Game.new(9, rules=Rules(scorpion=True)).rules
    with pytest.raises(KeyError):
        Game.new(9, rules="chaos")


# ---------------------------------------------------------------------------------------------
# Relaxed


def test_relaxed_deals_onto_empty_columns():
    classic = pos("| 5h", stock=STOCK10)
    assert classic.deal_refusal() == "Fill every empty column before dealing."
    g = pos("| 5h", stock=STOCK10, rules="relaxed")
    assert g.deal_refusal() is None and DEAL in g.legal_moves()
    g.play("deal")
    assert col(g, 1) == "| 5h 2c" and col(g, 2) == "| 3c" and col(g, 10) == "| Jc"
    assert g.undo() and col(g, 2) == "|" and len(g.stock) == 10


def test_relaxed_hint_deals_instead_of_filling_the_last_empty_column():
    # Classic tier 6 fills the last empty column so the stock can deal; under Relaxed it can anyway.
    lines = ("| Ts 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks")
    assert str(pos(*lines, stock=STOCK10).hint()) == "1>10:1"
    assert pos(*lines, stock=STOCK10, rules="relaxed").hint() == DEAL


# ---------------------------------------------------------------------------------------------
# Open


@pytest.mark.parametrize("rules", ["open", "spiderette+open"])
def test_open_deals_every_card_face_up(rules):
    g = Game.new(77, suits=2, rules=rules)
    base = Game.new(77, suits=2, rules=rules.replace("open", "classic").replace("+classic", ""))
    assert g.down == [0] * len(g.columns)
    assert g.columns == base.columns and g.stock == base.stock


def test_open_with_scorpion_opens_only_the_column_with_most_face_down_cards():
    g = Game.new(77, suits=4, rules="scorpion+open")
    assert g.down == [0, 5, 5, 5, 4, 4, 4, 4, 4, 4]  # columns 1-4 tie at 5: the first opens
    s = Game.new(77, suits=4, rules="spiderette+scorpion+open")
    assert s.down == [0, 1, 2, 3, 4, 5, 0]  # column 7 has the most


def test_stock_cards_are_face_up_anyway():
    g = Game.new(3, rules="open")
    g.play("deal")
    assert g.down == [0] * 10


# ---------------------------------------------------------------------------------------------
# Undo off


def test_undo_off():
    g = Game.new(12, rules="undo-off")
    g.play(g.legal_moves()[0])
    before = g.to_text()
    assert g.can_undo is False
    assert g.undo() is False
    assert g.to_text() == before and g.moves == 1


# ---------------------------------------------------------------------------------------------
# Scorpion


def test_scorpion_builds_only_on_the_same_suit():
    g = pos("| 8s", "| 7h", "| 7s", rules="scorpion")
    with pytest.raises(IllegalMove, match=r"^A 7 goes only on an 8 of its own suit\.$"):
        g.play("2>1")
    g.play("3>1")
    assert col(g, 1) == "| 8s 7s"


def test_scorpion_moves_any_face_up_group_sorted_or_not():
    g = pos("| 8s", "4c | 7s 2h Kd 9c", rules="scorpion")
    assert g.movable(1) == 4
    assert g.group_fitting(1, 0) == 4
    m = g.play("2>1")
    assert str(m) == "2>1:4"
    assert col(g, 1) == "| 8s 7s 2h Kd 9c" and col(g, 2) == "| 4c"  # 4c revealed


def test_scorpion_group_fitting_takes_the_deepest_matching_card():
    g = pos("| 8s", "2c | 7s 3h 7s 4d", "| 2d", rules="scorpion")  # both 7s of a 4-suit deck
    assert g.group_fitting(1, 0) == 4
    assert {str(m) for m in g.legal_moves() if m.target == 0} == {"2>1:4", "2>1:2"}
    assert g.group_fitting(1, 3) is None  # no King for an empty column
    assert g.group_fitting(1, 1) is None


def test_scorpion_move_from_the_middle_and_classic_refuses_it():
    classic = pos("| 8s", "| 5d 7s 2h", "| Kc")
    assert not classic.is_legal("2>1:2")
    g = pos("| 8s", "| 5d 7s 2h", "| Kc", rules="scorpion")
    assert g.is_legal("2>1:2")
    assert {str(m) for m in g.legal_moves()} >= {"2>1:2"}
    assert not g.is_legal("2>1:1")  # 2h on 8s: wrong rank and suit


def test_scorpion_only_a_king_or_a_king_led_group_enters_an_empty_column():
    g = pos("| Qh", "| 5d Ks 3c", "| Kc", rules="scorpion")
    with pytest.raises(IllegalMove, match=r"^Only a King, or a group led by a King, goes into an empty column\.$"):
        g.play("1>4")
    with pytest.raises(IllegalMove, match="Only a King"):
        g.play("2>4:1")
    assert g.group_fitting(1, 3) == 2
    assert str(g.play("2>4")) == "2>4:2"
    assert col(g, 4) == "| Ks 3c"
    with pytest.raises(IllegalMove, match="A King goes only into an empty column"):
        g.play("3>1")


def test_scorpion_stock_always_deals():
    g = pos("| 5h", stock=STOCK10, rules="scorpion")
    assert g.deal_refusal() is None
    assert g.legal_moves()[-1] == DEAL
    assert g.hint() == DEAL
    g.play("deal")
    assert col(g, 2) == "| 3c"


def test_scorpion_completes_a_run_and_a_run_left_at_the_source():
    g = pos("| Ks Qs Js Ts 9s", "| 8s 7s 6s 5s 4s 3s 2s As", rules="scorpion")
    g.play("2>1")
    assert g.done == [0] and g.columns[0] == [] and g.columns[1] == []
    g.undo()
    # A complete run under a stray card leaves once the stray card moves away.
    g = pos(f"2d | {RUN_S} As 5h", "| 6h", rules="scorpion")
    before = g.to_text()
    h = g.hint()
    assert str(h) == "1>2:1"
    g.play("1>2")
    assert g.done == [0] and col(g, 1) == "| 2d"
    assert g.undo() and g.to_text() == before


def test_scorpion_stuck_follows_scorpion_rules():
    # Classic could play 7h onto 8s; Scorpion can't, and with no stock that is stuck.
    classic = pos("| 8s", "| 7h", *KINGS)
    assert not classic.stuck
    g = pos("| 8s", "| 7h", *KINGS, rules="scorpion")
    assert g.legal_moves() == [] and g.stuck
    # Scorpion: a King column shifted whole into an empty column doesn't count.
    g = pos("| Ks Qh", "| 9d", rules="scorpion")
    assert {str(m) for m in g.legal_moves()} == {f"1>{t}:2" for t in range(3, 11)}
    assert g.stuck
    # ...but a King lifted off face-down cards does.
    g = pos("4c | Ks Qh", "| 9d", rules="scorpion")
    assert not g.stuck


def test_scorpion_hint_targets_the_same_suit():
    # Classic's hint would put 8h (revealing 3c) on 9s; Scorpion's must find 9h.
    g = pos("| 9s", "3c | 8h", "| Kc", rules="scorpion")
    assert g.hint() is None
    g = pos("| 9s", "3c | 8h", "| 9h", rules="scorpion")
    assert str(g.hint()) == "2>3:1"
    classic = pos("| 9s", "3c | 8h", "| Kc")
    assert str(classic.hint()) == "2>1:1"


def test_scorpion_hint_moves_a_king_group_to_reveal_and_never_splits():
    g = pos("3c | Ks 4h", "| 9c", *KINGS[:7], rules="scorpion")
    assert str(g.hint()) == "1>10:2"  # tier 5: reveals into an empty column
    g = pos("| 9h 8h", "| 9h", *KINGS, rules="scorpion")
    assert g.hint() is None  # 8h onto the other 9h would split 9h 8h


# ---------------------------------------------------------------------------------------------
# Joker


def test_joker_text_forms():
    assert str(Move(JOKER, 3, 1)) == "joker>4"
    assert Move.parse("joker>4") == Move.parse("J>4") == Move.parse("joker>4:1") == Move(JOKER, 3, 1)
    assert Move.parse("joker>4").is_joker and not Move.parse("joker>4").is_deal
    for bad in ("joker>x", "joker>", "-1>4", "0>3"):
        with pytest.raises(IllegalMove):
            Move.parse(bad)


def test_no_jokers_without_the_rule():
    g = pos("| 8h", stock="7h 3c 4c 5c 6c 7c 8c 9c Tc Jc")
    assert g.jokers_left == 0 and g.legal_jokers() == []
    with pytest.raises(IllegalMove, match="without jokers"):
        g.play_joker(0)


def test_joker_takes_the_stock_copy_dealt_last_first():
    g = pos("| 8h", "| Kc", stock="7h 2c 3c 4c 5c 6c 7c 8c 9c 7h", rules="joker")
    assert g.jokers_left == 3
    m = g.play_joker(0)
    assert str(m) == "joker>1"
    assert col(g, 1) == "| 8h 7h"
    assert header(g, "stock") == "7h 2c 3c 4c 5c 6c 7c 8c 9c"
    assert g.jokers_left == 2 and g.moves == 1 and header(g, "jokers") == "2"
    assert g.deals_left == 1  # a short last deal of 9 cards


def test_joker_prefers_the_same_suit_then_face_down_then_exposed():
    # Same suit anywhere beats another suit in the stock; face-down beats exposed.
    g = pos("| 8h", "| 7h", "Kc 7h | 2d", stock="7s", rules="joker")
    g.play("joker>1")
    assert col(g, 1) == "| 8h 7h" and col(g, 3) == "Kc | 2d" and col(g, 2) == "| 7h"
    assert header(g, "stock") == "7s"


def test_joker_takes_an_exposed_card_last_and_its_column_flips():
    g = pos("| 8h", "4c | 7h", rules="joker+scoring")
    g.play_joker(0)
    assert col(g, 1) == "| 8h 7h" and col(g, 2) == "| 4c"
    assert g.score == 3 + 4  # a same-suit join and a revealed card (4 suits)


def test_joker_falls_back_to_other_suits_in_order_s_h_d_c():
    g = pos("| 8h", stock="7c 7d", rules="joker")
    g.play_joker(0)
    assert col(g, 1) == "| 8h 7d"
    g = pos("| 8h", "| 7c", "5c 7s | 2d", rules="joker")
    g.play_joker(0)
    assert col(g, 1) == "| 8h 7s"


def test_joker_under_scorpion_only_brings_the_same_suit():
    g = pos("| 8h", stock="7s 7c", rules="scorpion+joker")
    assert g.legal_jokers() == []
    with pytest.raises(IllegalMove, match=r"^No 7 of hearts is left in the stock or on the table for the joker\.$"):
        g.play_joker(0)


def test_joker_on_an_empty_column_brings_a_king():
    g = pos("| 8h", stock="Kd Kh 5c", rules="joker")
    g.play_joker(1)
    assert col(g, 2) == "| Kh" and header(g, "stock") == "Kd 5c"


def test_joker_refusals():
    g = pos("| Ah", "| 9h", rules="joker")
    with pytest.raises(IllegalMove, match=r"^Nothing goes on an Ace\.$"):
        g.play_joker(0)
    with pytest.raises(IllegalMove, match="No 8 is left"):
        g.play_joker(1)
    with pytest.raises(IllegalMove, match="numbered 1 to 10"):
        g.play_joker(10)
    g = pos("| 9h", stock="8h 8h 8s", rules="joker", extra="jokers: 1")
    g.play_joker(0)
    assert g.jokers_left == 0
    with pytest.raises(IllegalMove, match=r"^No jokers left\.$"):
        g.play("joker>1")


def test_joker_completes_a_run():
    g = pos(f"3d | {RUN_S}", stock="As 5c", rules="joker+scoring")
    g.play_joker(0)
    assert g.done == [0] and col(g, 1) == "| 3d"
    assert g.score == 150 + 4 + 3  # run, revealed 3d, As joined its suit


@pytest.mark.parametrize(
    "lines, stock",
    [
        (("| 8h", "| Kc"), "7h 2c 3c 4c 5c 6c 7c 8c 9c 7h"),  # from the stock
        (("| 8h", "Kc 7h | 2d"), "-"),  # face-down
        (("| 8h", "4c | 7h"), "-"),  # exposed, with a flip
        (("| 8h", f"2d | {RUN_S} As 7h"), "-"),  # exposed, leaving a complete run behind
        (("Kd 8h | 9h", "| Kc"), "-"),  # face-down in the target column itself
        ((f"3d | {RUN_S}",), "As"),  # completes a run
    ],
)
def test_joker_undo_restores_everything(lines, stock):
    g = pos(*lines, stock=stock, rules="joker+scoring")
    before = g.to_text()
    target = 0
    g.play_joker(target)
    assert g.card_count() == Game.from_text(before).card_count()
    assert g.undo()
    after = g.to_text()
    assert after.replace("score: -1", "score: 0") == before
    assert g.jokers_left == 3 and g.moves == 0 and g.score == -1


def test_joker_from_an_exposed_card_that_leaves_a_run():
    g = pos("| 8h", f"2d | {RUN_S} As 7h", rules="joker")
    g.play_joker(0)
    assert g.done == [0] and col(g, 2) == "| 2d"


def test_jokers_are_listed_apart_from_legal_moves_and_keep_a_round_from_being_stuck():
    g = pos("| 5h", "| 9s", *KINGS, rules="joker")
    assert g.legal_moves() == []
    assert [str(m) for m in g.legal_jokers()] == []  # nothing anywhere to take
    assert g.stuck
    g = pos("| 5h", "| 9s", "3c 8d | Kc", *KINGS[1:], rules="joker")
    assert g.legal_moves() == []
    assert [str(m) for m in g.legal_jokers()] == ["joker>2"]  # the face-down 8d; no Queen anywhere
    assert not g.stuck
    assert g.hint() is None  # the hint never spends a joker
    assert all(g.is_legal(m) for m in g.legal_jokers())
    g.play_joker(1)
    assert col(g, 2) == "| 9s 8d" and col(g, 3) == "3c | Kc"
    assert g.legal_jokers() == [] and g.stuck


def test_short_stock_notation_round_trips_under_joker():
    g = pos("| 8h", stock="7h 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc", rules="relaxed+joker", extra="jokers: 2")
    assert g.deals_left == 2 and g.jokers_left == 2
    text = g.to_text()
    assert "jokers: 2" in text and Game.from_text(text).to_text() == text
    g.play("deal")
    g.play("deal")  # the short last deal: one card, to column 1
    assert col(g, 1) == "| 8h 7h Jc" and col(g, 2) == "| 2c"
    assert g.stock == [] and g.deals_left == 0
    g.undo()
    assert col(g, 1) == "| 8h 7h" and header(g, "stock") == "Jc"


def test_jokers_line_rules():
    with pytest.raises(PositionError, match="needs the joker rule"):
        Game.from_text("suits: 4\njokers: 2\n1: | 5h")
    with pytest.raises(PositionError, match="at most 3"):
        Game.from_text("suits: 4\nrules: joker\njokers: 4\n1: | 5h")
    with pytest.raises(PositionError, match="not a whole number of deals"):
        Game.from_text("suits: 4\nstock: 2c 3c\n1: | 5h")


# ---------------------------------------------------------------------------------------------
# Scoring

POINTS = {1: (50, 2, 1, 300), 2: (100, 3, 2, 400), 4: (150, 4, 3, 500)}
PAIR = {1: ("9s", "8s"), 2: ("9h", "8h"), 4: ("9h", "8h")}


def test_no_score_without_the_rule():
    g = Game.new(4)
    assert g.score is None and not g.scoring and header(g, "score") is None
    g.play(g.legal_moves()[0])
    assert g.score is None


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_join_and_reveal_points_by_suit_count(suits):
    run, reveal, join, _ = POINTS[suits]
    hi, lo = PAIR[suits]
    g = pos(f"| {hi}", f"4s | {lo}", rules="scoring", suits=suits)
    assert g.score == 0 and g.scoring
    g.play("2>1")
    assert g.score == join + reveal


def test_a_move_onto_another_suit_is_no_join():
    g = pos("| 9h", "| 8s", "| Kc", rules="scoring")
    g.play("2>1")
    assert g.score == 0


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_completed_run_points(suits):
    run, reveal, join, _ = POINTS[suits]
    g = pos(f"3s | {RUN_S}", "| As", rules="scoring", suits=suits)
    g.play("2>1")
    assert g.score == run + reveal + join


def test_undo_takes_the_points_back_and_costs_one():
    g = pos("| 9h", "4c | 8h", "| 8s", rules="scoring")
    g.play("2>1")
    assert g.score == 7
    assert g.undo() and g.score == -1
    g.play("3>1")  # no points
    assert g.undo() and g.score == -2


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_win_bonus_is_base_minus_moves(suits):
    run, _, join, base = POINTS[suits]
    done = {1: "s s s s s s s", 2: "s s s h h h h", 4: "s c c d d h h"}[suits]
    g = pos(f"| {RUN_S}", "| As", rules="scoring", suits=suits, done=done, extra="moves: 10")
    g.play("2>1")
    assert g.won and g.score == join + run + base - 11


def test_win_bonus_counts_unused_jokers_and_never_goes_below_zero():
    g = pos(f"| {RUN_S}", "| As", rules="scoring+joker", suits=1, done="s s s s s s s",
            extra="moves: 20\njokers: 2")
    g.play("2>1")
    assert g.score == 1 + 50 + (300 - 21) + 2 * 3
    g = pos(f"| {RUN_S}", "| As", rules="scoring", suits=1, done="s s s s s s s", extra="moves: 400")
    g.play("2>1")
    assert g.score == 1 + 50


def test_deal_scores_its_joins():
    g = pos("| 8h", "| 8s", *KINGS, rules="scoring", stock="7h 7h 2c 3c 4c 5c 6c 7c 8c 9c")
    g.play("deal")
    assert g.score == 3
    g.undo()
    assert g.score == -1


def test_joker_scores_like_a_move_and_counts_as_one():
    g = pos("| 9d", "| Kc", stock="8d 5c", rules="joker+scoring")
    g.play_joker(0)
    assert g.score == 3 and g.moves == 1


def test_layout_joins_score_at_the_start():
    for number in range(1, 30):
        g = Game.new(number, suits=1, rules="open+scoring")
        joins = sum(
            1 for c in g.columns for a, b in zip(c, c[1:]) if (a & 15) == (b & 15) + 1 and a >> 4 == b >> 4
        )
        assert g.score == joins
    assert Game.new(5, suits=4, rules="scoring").score == 0
    g = Game.new(5, suits=2, rules="simple-simon+scoring")
    joins = sum(1 for c in g.columns for a, b in zip(c, c[1:]) if a == b + 1)
    assert g.score == 2 * joins


def test_score_line_round_trips_and_needs_the_rule():
    g = pos("| 9h", rules="scoring", extra="score: -7")
    assert g.score == -7 and header(g, "score") == "-7"
    assert Game.from_text(g.to_text()).to_text() == g.to_text()
    with pytest.raises(PositionError, match="needs the scoring rule"):
        Game.from_text("suits: 4\nscore: 3\n1: | 5h")


# ---------------------------------------------------------------------------------------------
# Give up


def test_give_up_ends_the_round_lost():
    g = Game.new(8, rules="joker")
    g.play(g.legal_moves()[0])
    assert g.give_up() is True
    assert g.lost and g.over and not g.won and not g.stuck
    assert g.legal_moves() == [] and g.legal_jokers() == [] and g.hint() is None
    assert not g.can_undo and g.undo() is False
    with pytest.raises(IllegalMove, match="The round is over"):
        g.play("deal")
    with pytest.raises(IllegalMove, match="The round is over"):
        g.play_joker(0)
    assert g.give_up() is False
    assert g.copy().lost


def test_a_won_round_cannot_be_given_up():
    g = pos(f"| {RUN_S}", "| As", suits=1, done="s s s s s s s")
    g.play("2>1")
    assert g.won and g.give_up() is False and not g.lost


# ---------------------------------------------------------------------------------------------
# Spiderette and Simple Simon


def ref_one_deck(number: int, slots: str) -> list[str]:
    """SPEC §2 steps 1-2 over one copy: for rank A..K, for slot 0..3; MS shuffle."""
    deck = [r + slots[s] for r in "A23456789TJQK" for s in range(4)]
    seed = number
    for i in range(len(deck), 1, -1):
        seed = (214013 * seed + 2531011) % 2**32
        j = ((seed >> 16) & 0x7FFF) % i
        deck[i - 1], deck[j] = deck[j], deck[i - 1]
    return deck


@pytest.mark.parametrize("number", [1, 617, 2147483647])
def test_spiderette_deal_by_hand(number):
    deck = ref_one_deck(number, "cdhs")
    cols = [[] for _ in range(7)]
    for row in range(7):
        for c in range(row, 7):
            cols[c].append(deck.pop())
    stock = []
    while deck:
        packet = [deck.pop() for _ in range(min(7, len(deck)))]
        stock += reversed(packet)
    g = Game.new(number, suits=4, rules="spiderette")
    for i in range(7):
        assert col(g, i + 1) == " ".join(cols[i][:-1] + ["|", cols[i][-1]])
    assert header(g, "stock") == " ".join(stock)


def test_spiderette_layout_and_stock():
    g = Game.new(31, suits=4, rules="spiderette")
    assert [len(c) for c in g.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert g.down == [0, 1, 2, 3, 4, 5, 6]
    assert len(g.stock) == 24 and g.deals_left == 4 and g.deal_size == 7
    assert g.runs_to_win == 4 and g.card_count() == 52
    for _ in range(3):
        row = g.stock[:7]
        g.play("deal")
        assert [c[-1] for c in g.columns] == row
    last = list(g.stock)
    assert len(last) == 3 and g.deals_left == 1
    tops = [c[-1] for c in g.columns]
    g.play("deal")
    assert [c[-1] for c in g.columns[:3]] == last and [c[-1] for c in g.columns[3:]] == tops[3:]
    assert g.deals_left == 0 and g.card_count() == 52
    g.undo()
    assert g.stock == last and [c[-1] for c in g.columns] == tops


def test_spiderette_needs_every_column_filled_before_a_deal_unless_relaxed():
    g = pos("| 5h", stock="2c 3c 4c 5c 6c 7c 8c", rules="spiderette")
    assert g.deal_refusal() == "Fill every empty column before dealing."
    g = pos("| 5h", stock="2c 3c 4c 5c 6c 7c 8c", rules="spiderette+relaxed")
    g.play("deal")
    assert col(g, 7) == "| 8c"


def test_spiderette_notation_has_seven_columns():
    g = Game.new(31, suits=2, rules="spiderette")
    text = g.to_text()
    assert "7: " in text and "8:" not in text
    assert Game.from_text(text).to_text() == text
    with pytest.raises(PositionError) as e:
        Game.from_text("suits: 4\nrules: spiderette\n8: | 5h")
    assert e.value.line == 3 and "no column 8 (columns are 1-7" in str(e.value)
    with pytest.raises(PositionError, match="a one-deck 4-suit game holds 1"):
        Game.from_text("suits: 4\nrules: spiderette\n1: | 5h\n2: | 5h")
    # A stock of 7 + 3 is a whole Spiderette stock.
    g = pos("| 5h", stock="2c 3c 4c 5c 6c 7c 8c 9c Tc Jc", rules="spiderette")
    assert g.deals_left == 2


def test_simple_simon_deal_by_hand():
    for number in (1, 4242):
        deck = ref_one_deck(number, "cdhs")
        cols = [[] for _ in range(10)]
        for width in range(9, 2, -1):
            for c in range(width):
                cols[c].append(deck.pop())
        for c in range(10):
            cols[c].append(deck.pop())
        g = Game.new(number, suits=4, rules="simple-simon")
        for i in range(10):
            assert col(g, i + 1) == "| " + " ".join(cols[i])


def test_simple_simon_layout():
    g = Game.new(9, suits=4, rules="simple-simon")
    assert [len(c) for c in g.columns] == [8, 8, 8, 7, 6, 5, 4, 3, 2, 1]
    assert g.down == [0] * 10 and g.stock == [] and g.deals_left == 0
    assert g.runs_to_win == 4 and g.card_count() == 52
    assert g.deal_refusal() == "Simple Simon has no stock."
    assert DEAL not in g.legal_moves()
    with pytest.raises(PositionError, match="simple-simon has no stock"):
        Game.from_text("suits: 4\nrules: simple-simon\nstock: 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc\n1: | 5h")


def test_simple_simon_moves_like_spider():
    g = pos("| 9h", "| 8s 7s", "| Kc", rules="simple-simon")
    assert g.is_legal("2>1:2") and g.is_legal("2>4:1")  # any card or same-suit run; empty takes any


@pytest.mark.parametrize("rules", ["spiderette", "simple-simon"])
@pytest.mark.parametrize("suits, copies", [(1, {"s": 4}), (2, {"h": 2, "s": 2}), (4, {"c": 1, "d": 1, "h": 1, "s": 1})])
def test_one_deck_suit_counts(rules, suits, copies):
    g = Game.new(55, suits=suits, rules=rules)
    cards = [c for column in g.columns for c in column] + g.stock
    assert len(cards) == 52
    from collections import Counter

    counted = Counter(cards)
    assert set(counted.values()) == set(copies.values())
    assert {"shdc"[c >> 4] for c in counted} == set(copies)


@pytest.mark.parametrize("rules", ["spiderette", "simple-simon"])
def test_one_deck_same_ranks_at_every_suit_count(rules):
    ranks = {s: [[c & 15 for c in column] for column in Game.new(99, suits=s, rules=rules).columns] for s in (1, 2, 4)}
    assert ranks[1] == ranks[2] == ranks[4]
