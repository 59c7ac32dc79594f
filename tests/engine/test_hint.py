"""SPEC §4: the hint's tiers, tie-breaks and exclusions."""

from spider_tui.engine import Game

from .helpers import pos

STOCK10 = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"
# Fillers that take nothing and give nothing (kings, no empty columns needed to matter).
K = ["| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks"]


def hint(g: Game) -> str | None:
    h = g.hint()
    return None if h is None else str(h)


def test_tier1_completes_beats_reveal():
    g = pos("| Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "4d | As", "5c | 9h", "| Th", *K[:6])
    # 3>4 reveals onto non-empty (tier 2); 2>1 completes (tier 1)
    assert hint(g) == "2>1:1"


def test_completes_even_when_it_splits():
    # 2s As in col 2 sits on 3s: moving As splits that run, but it completes on col 1.
    g = pos("| Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| 3s 2s As", *K[:6])
    assert hint(g) == "2>1:1"


def test_tier2_reveal_onto_non_empty_beats_empties():
    g = pos("| 9h", "4c | 8s", "| 8h", *K[:7])  # 2>1 reveals; 3>1 not (no down card)
    assert hint(g) == "2>1:1"


def test_tier3_empties_beats_extends():
    g = pos("| 9h", "| 8s", "| 9s", "| 8s", *K[:6])
    # 2>1 empties col 2 (not extend); 2>3 empties and extends; 4>3 empties+extends too.
    assert hint(g) == "2>3:1"


def test_tier4_extends():
    g = pos("| 9h", "| 9s", "Qc | Ts 8s", "| Th 8h", *K[:6])
    # 3>1 (8s on 9h) reveals, extends and empties nothing: sideways, never proposed.
    # 3>2 (8s on 9s) and 4>1 (8h on 9h) both extend, one card each: lower S wins.
    assert hint(g) == "3>2:1"


def test_tier5_reveal_into_empty_column():
    g = pos("3c | 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks")
    assert hint(g) == "1>10:1"


def test_tier6_fills_last_empty_column_when_stock_waits():
    g = pos("| Ts 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks", stock=STOCK10)
    assert hint(g) == "1>10:1"


def test_no_tier6_without_stock():
    g = pos("| Ts 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks")
    assert hint(g) is None


def test_gap_shift_is_not_the_exception():
    # Col 1 holds a single card: moving it into the empty column empties its own source.
    g = pos("| 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks", stock=STOCK10)
    assert hint(g) is None


def test_no_exception_while_two_columns_are_empty():
    g = pos("| Ts 7h", "| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", stock=STOCK10)
    assert hint(g) is None


def test_tier7_deal():
    g = pos("| 5h", "| 9s", *K, stock=STOCK10)
    assert hint(g) == "deal"


def test_tier8_nothing():
    g = pos("| 5h", "| 9s", *K)
    assert hint(g) is None


def test_never_splits_a_clean_run():
    g = pos("| 9h", "| Ts 9s 8s", *K)  # 8s onto 9h would split the clean run Ts 9s 8s
    assert hint(g) is None


def test_sideways_move_is_not_proposed():
    g = pos("| 9h", "| Tc 8s", "| 9d", *K[:7])  # 8s to 9h or 9d: reveals nothing, extends nothing
    assert hint(g) is None


def test_tie_break_more_cards_first():
    g = pos("| Th", "2d | 9h", "3d | 9s", "4d | Js Ts 9s 8s", "| Jh", *K[:4])
    # 2>1 and 3>1 reveal 1 card each onto col 1; 4>1? 9s 8s... group fitting Th is 9s 8s (2 cards,
    # splits Ts) -> excluded. 4>5: Ts 9s 8s onto Jh, 3 cards, splits Js -> excluded.
    # 2>1 extends (9h on Th): tier 2 extending wins over 3>1.
    assert hint(g) == "2>1:1"


def test_tie_break_lower_source_then_lower_target():
    g = pos("| Th", "| Tc", "4c | 9d", "5c | 9d", *K[:6])
    assert hint(g) == "3>1:1"


def test_tie_break_more_cards_within_tier():
    g = pos("| Th", "| Tc", "4c | 9d", "5c | 9s 8s", *K[:6])
    assert hint(g) == "4>1:2"


def test_hint_is_deterministic_and_legal_on_real_deals():
    for n in range(1, 30):
        g = Game.new(n, suits=2)
        for _ in range(40):
            h = g.hint()
            assert h == g.copy().hint()
            if h is None:
                break
            assert g.is_legal(h)
            g.play(h)


# -- SPEC §4 as amended (issue 10): no "empties" while the stock waits and no other column is empty

def test_no_empties_tier_while_the_stock_waits_and_no_column_is_empty():
    # 2>1 (8s onto 9h) would empty column 2; the stock waits and no column is empty: it empties
    # nothing that helps (it only blocks the deal), so it is sideways; the deal is the hint.
    g = pos("| 9h", "| 8s", *K, stock=STOCK10)
    assert hint(g) == "deal"


def test_empties_tier_while_the_stock_waits_but_another_column_is_empty():
    g = pos("| 9h", "| 8s", *K[:7], stock=STOCK10)  # column 10 is empty already
    assert hint(g) == "2>1:1"


def test_empties_tier_when_the_stock_is_out():
    g = pos("| 9h", "| 8s", *K)
    assert hint(g) == "2>1:1"


def test_an_extending_move_that_empties_is_still_proposed_while_the_stock_waits():
    g = pos("| 9s", "| 8s", *K, stock=STOCK10)
    assert hint(g) == "2>1:1"  # tier 4 (extends), not a loop: +3 on the §4 measure


def position_key(g: Game) -> str:
    """The position without its move counter."""
    return "\n".join(line for line in g.to_text().splitlines() if not line.startswith("moves:"))


def test_deal_26_at_four_suits_no_longer_loops():
    g = Game.new(26, suits=4)
    seen = set()
    for _ in range(2000):
        key = position_key(g)
        assert key not in seen
        seen.add(key)
        h = g.hint()
        if h is None or g.won:
            break
        g.play(h)
    else:
        raise AssertionError("the hint did not end")
