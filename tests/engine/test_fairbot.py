"""SPEC §14: the fair bot sees only the view (unseen cards ??) and never undoes."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game
from spider_tui.engine.fairbot import plan, play_hints, play_round


def with_hidden_cards_shuffled(g: Game, order: list[int]) -> Game:
    """The same table as the player sees it, with the unseen cards (face down and stock) in
    another order."""
    hidden = [c for cards, d in zip(g.columns, g.down) for c in cards[:d]] + list(g.stock)
    hidden = [hidden[i] for i in order]
    out = g.copy()
    for cards, d in zip(out.columns, out.down):
        cards[:d], hidden = hidden[:d], hidden[d:]
    out.stock[:] = hidden
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=2147483647), st.sampled_from([1, 2, 4]), st.randoms(use_true_random=False))
def test_the_bot_plays_the_same_whatever_the_unseen_cards_are(number, suits, rnd):
    g = Game.new(number, suits=suits)
    order = list(range(44 + 50))
    rnd.shuffle(order)
    other = with_hidden_cards_shuffled(g, order)
    assert other.view() == g.view()
    assume(other.to_text() != g.to_text())
    # Play both rounds the bot's way up to the first card that turns up: identical lines.
    lines = [[str(m) for m in plan(Game.from_text(game.view()), budget=300)] for game in (g, other)]
    assert lines[0] == lines[1] and lines[0]


def test_the_bot_wins_an_easy_deal_without_undo(monkeypatch):
    def no_undo(self) -> bool:
        raise AssertionError("the fair bot undid a move")

    monkeypatch.setattr(Game, "undo", no_undo)
    g = Game.new(1, suits=1)
    assert play_round(g) is True and g.won and g.card_count() == 104


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=1, max_value=2147483647), st.sampled_from([2, 4]))
def test_a_round_ends_won_or_with_nothing_left_that_helps(number, suits):
    g = Game.new(number, suits=suits)
    won = play_round(g, budget=200)
    assert won == g.won
    assert g.card_count() == 104
    if not won:
        assert not plan(Game.from_text(g.view()), budget=200)


def test_the_hint_bot_follows_the_hint_to_its_end():
    g = Game.new(3, suits=1)
    won = play_hints(g)
    assert won == g.won and (won or g.hint() is None)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=1, max_value=2147483647), st.sampled_from([1, 2, 4]), st.integers(min_value=1, max_value=2))
def test_a_plan_is_played_only_up_to_the_first_card_it_turns_up(number, suits, level):
    # The search looks past a move that turns up a card, but what comes up is unknown: only
    # the last move of a plan may turn one up (or deal).
    g = Game.new(number, suits=suits)
    for _ in range(4):
        moves = plan(Game.from_text(g.view()), level=level)
        if not moves:
            break
        for i, m in enumerate(moves):
            played = g.play(m)
            if played.turned_up or played.dealt:
                assert i == len(moves) - 1, (str(m), [str(x) for x in moves])
