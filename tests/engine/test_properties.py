"""Hypothesis properties over random play (SPEC §1, §3, §4, §12)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game

deal_numbers = st.integers(min_value=1, max_value=2147483647)
suit_counts = st.sampled_from([1, 2, 4])
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=120)


def random_play(g: Game, picks: list[int], undo_every: int = 0):
    for i, p in enumerate(picks):
        if undo_every and i % undo_every == undo_every - 1:
            g.undo()
            continue
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[p % len(moves)])
        yield g


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_card_count_is_always_104(number, suits, picks):
    g = Game.new(number, suits=suits)
    for state in random_play(g, picks, undo_every=7):
        assert state.card_count() == 104
        assert all(len(c) == 0 or d < len(c) for c, d in zip(state.columns, state.down))


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_undo_back_to_start_gives_the_dealt_position(number, suits, picks):
    g = Game.new(number, suits=suits)
    start = g.to_text()
    played = sum(1 for _ in random_play(g, picks))
    if g.won:
        return
    for _ in range(played):
        assert g.undo()
    assert g.undo() is False
    assert g.to_text() == start


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_text_round_trip_is_identity(number, suits, picks):
    g = Game.new(number, suits=suits)
    for state in random_play(g, picks[:40]):
        text = state.to_text()
        again = Game.from_text(text)
        assert again.to_text() == text
        assert again.legal_moves() == state.legal_moves()


@settings(max_examples=60, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_hint_is_legal_and_the_same_for_the_same_position(number, suits, picks):
    g = Game.new(number, suits=suits)
    for state in random_play(g, picks[:50]):
        h = state.hint()
        assert h == Game.from_text(state.to_text()).hint()
        if h is not None:
            assert h in state.legal_moves()
        else:
            # No hint: no deal is legal (tier 7 would give it).
            assert state.deal_refusal() is not None


@settings(max_examples=40, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_stuck_means_only_whole_column_shifts_are_left(number, suits, picks):
    g = Game.new(number, suits=suits)
    for state in random_play(g, picks):
        if state.stuck:
            for m in state.legal_moves():
                assert not m.is_deal
                assert not state.columns[m.target]
                assert m.count == len(state.columns[m.source])


@settings(max_examples=40, deadline=None)
@given(deal_numbers, suit_counts, choices)
def test_illegal_moves_change_nothing(number, suits, picks):
    g = Game.new(number, suits=suits)
    for state in random_play(g, picks[:30]):
        before = state.to_text()
        legal = set(state.legal_moves())
        for s in range(10):
            for t in range(10):
                for k in (1, 2, 3):
                    from spider_tui.engine import IllegalMove, Move

                    m = Move(s, t, k)
                    if m in legal:
                        continue
                    try:
                        state.play(m)
                    except IllegalMove:
                        pass
                    else:
                        raise AssertionError(f"{m} was played but is not in legal_moves()")
                    assert state.to_text() == before
