"""Hypothesis properties under every rule option and game (SPEC §10, §12): card count, undo to the
start, notation round trip, hint legality, stuck, score bookkeeping."""

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game, IllegalMove, Move

RULES = [
    "spiderette",
    "simple-simon",
    "scorpion",
    "relaxed",
    "open",
    "scorpion+open",
    "joker+scoring",
    "relaxed+open+joker+scoring",
    "scorpion+joker+scoring",
    "spiderette+joker+scoring",
    "spiderette+scorpion+open+joker",
    "simple-simon+scorpion+joker+scoring",
    "simple-simon+joker",
    "undo-off+scoring",
]

deal_numbers = st.integers(min_value=1, max_value=2147483647)
suit_counts = st.sampled_from([1, 2, 4])
rules_names = st.sampled_from(RULES)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=100)


def actions(g: Game) -> list[Move]:
    return g.legal_moves() + g.legal_jokers()


def random_play(g: Game, picks: list[int], undo_every: int = 0):
    """Play picks (jokers included), undoing every ``undo_every``-th step; yields after each action."""
    for i, p in enumerate(picks):
        if undo_every and i % undo_every == undo_every - 1:
            g.undo()
            yield g
            continue
        moves = actions(g)
        if not moves:
            break
        g.play(moves[p % len(moves)])
        yield g


def check_table(g: Game) -> None:
    assert g.card_count() == g.rules.card_total
    assert len(g.columns) == g.rules.columns
    for cards, down in zip(g.columns, g.down):
        assert 0 <= down and (not cards or down < len(cards))
    assert 0 <= g.jokers_left <= 3


@settings(max_examples=80, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_card_count_is_conserved(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    check_table(g)
    for state in random_play(g, picks, undo_every=5):
        check_table(state)


@settings(max_examples=80, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_undo_back_to_start_gives_the_dealt_position(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    start = Game.new(number, suits=suits, rules=rules)
    played = sum(1 for _ in random_play(g, picks))
    if g.won:
        return
    if not g.rules.undo_allowed:
        assert g.undo() is False
        return
    for _ in range(played):
        assert g.undo()
    assert g.undo() is False
    assert g.columns == start.columns and g.down == start.down and g.stock == start.stock
    assert g.done == [] and g.moves == 0 and g.jokers_left == start.jokers_left
    if g.scoring:
        assert g.score == start.score - played  # each undo costs a point, nothing else is left
    else:
        assert g.to_text() == start.to_text()


@settings(max_examples=80, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_text_round_trip_is_identity(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    for state in random_play(g, picks[:40], undo_every=7):
        text = state.to_text()
        again = Game.from_text(text)
        assert again.to_text() == text
        assert again.rules == state.rules
        assert again.legal_moves() == state.legal_moves()
        assert again.legal_jokers() == state.legal_jokers()
        assert again.score == state.score and again.jokers_left == state.jokers_left


@settings(max_examples=80, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_hint_is_legal_and_the_same_for_the_same_position(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    for state in random_play(g, picks[:50]):
        h = state.hint()
        assert h == Game.from_text(state.to_text()).hint()
        if h is not None:
            assert not h.is_joker
            assert h in state.legal_moves()
        else:
            assert state.deal_refusal() is not None


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_stuck_means_only_whole_column_shifts_and_no_joker(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    for state in random_play(g, picks):
        if state.stuck:
            assert state.legal_jokers() == []
            for m in state.legal_moves():
                assert not m.is_deal
                assert not state.columns[m.target]
                assert m.count == len(state.columns[m.source])


@settings(max_examples=40, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_illegal_moves_change_nothing_and_legal_ones_are_listed(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    for state in random_play(g, picks[:20]):
        before = state.to_text()
        legal = set(state.legal_moves()) | set(state.legal_jokers())
        n = len(state.columns)
        tries = [Move(s, t, k) for s in range(n) for t in range(n) for k in (1, 2, 3, 5)]
        tries += [Move(-1, t, 1) for t in range(n)]
        for m in tries:
            if m in legal:
                continue
            try:
                state.play(m)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{m} was played but is not listed as legal")
            assert state.to_text() == before


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, rules_names, choices)
def test_play_then_undo_costs_exactly_one_point(number, suits, rules, picks):
    g = Game.new(number, suits=suits, rules=rules)
    for state in random_play(g, picks[:30]):
        if not state.scoring or not state.rules.undo_allowed or state.over:
            continue
        moves = actions(state)
        if not moves:
            break
        before_text, before_score = state.to_text(), state.score
        state.play(moves[0])
        if state.won:
            break
        assert state.undo()
        assert state.score == before_score - 1
        assert state.to_text() == before_text.replace(f"score: {before_score}", f"score: {before_score - 1}")
