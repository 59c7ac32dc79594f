"""SPEC §2 "Deal codes (the Palast)": 16 random bytes named ``p-`` + lower-case unpadded base32,
made into a deck by SHA-256 words with rejection sampling, accepted wherever a deal number is.

The deck is checked against a re-implementation written here from SPEC's text alone (not from
``engine/deal.py``): its own base32, its own word stream, its own deal of step 3."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.cli import main
from spider_tui.engine import Game, PositionError, deal_code, parse_deal
from spider_tui.engine.cards import card_text
from spider_tui.store.stats import RoundState, load_round, save_round

RAW = bytes.fromhex("00112233445566778899aabbccddeeff")

_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"


def spec_base32(raw: bytes) -> str:
    """RFC 4648 base32 by hand: 5-bit groups, most significant first, the last padded with 0 bits."""
    bits = "".join(f"{b:08b}" for b in raw)
    bits += "0" * (-len(bits) % 5)
    return "".join(_ALPHABET[int(bits[i:i + 5], 2)] for i in range(0, len(bits), 5))


def spec_deck(raw: bytes, suits: int) -> list[str]:
    """SPEC §2 steps 1 and the code's shuffle, as written: the shuffled list of card texts."""
    slot = {4: "cdhs", 2: "hshs", 1: "ssss"}[suits]
    cards = [r + slot[s] for _copy in range(2) for r in "A23456789TJQK" for s in range(4)]
    words: list[int] = []
    counter = 0

    def word() -> int:
        nonlocal counter
        if not words:
            digest = hashlib.sha256(raw + counter.to_bytes(8, "big")).digest()
            counter += 1
            words.extend(int.from_bytes(digest[k:k + 8], "big") for k in range(0, 32, 8))
        return words.pop(0)

    for i in range(104, 1, -1):
        w = word()
        while w >= (2**64 // i) * i:
            w = word()
        j = w % i
        cards[i - 1], cards[j] = cards[j], cards[i - 1]
    return cards


def spec_layout(raw: bytes, suits: int) -> tuple[list[list[str]], list[int], list[str]]:
    """Step 3: off the END of the list, 44 down round-robin, 10 up continuing, 5 packets."""
    cards = spec_deck(raw, suits)
    columns: list[list[str]] = [[] for _ in range(10)]
    for k in range(54):
        columns[k % 10].append(cards.pop())
    stock: list[str] = []
    for _ in range(5):
        packet = [cards.pop() for _ in range(10)]
        stock += packet[::-1]  # column 1 gets the LAST card that went into the packet
    return columns, [len(c) - 1 for c in columns], stock


def as_text(g: Game) -> tuple[list[list[str]], list[int], list[str]]:
    return [[card_text(c) for c in col] for col in g.columns], list(g.down), [card_text(c) for c in g.stock]


def test_code_is_p_and_26_lower_case_base32_letters():
    code = deal_code(RAW)
    assert code == "p-" + spec_base32(RAW)
    assert len(code) == 28 and code == code.lower() and "=" not in code
    assert deal_code(bytes(16)) == "p-" + "a" * 26


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_a_code_deals_exactly_as_spec_writes(suits):
    g = Game.new(deal_code(RAW), suits=suits)
    assert as_text(g) == spec_layout(RAW, suits)
    assert g.deal_number == deal_code(RAW)


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=16, max_size=16), st.sampled_from([1, 2, 4]))
def test_every_code_deals_as_spec_writes(raw, suits):
    code = deal_code(raw)
    assert parse_deal(code) == code
    assert as_text(Game.new(code, suits=suits)) == spec_layout(raw, suits)


def test_a_code_is_not_a_number_deal():
    # The code's deck is not the FreeCell shuffle of any nearby reading of its bytes.
    g = Game.new(deal_code(RAW), suits=4)
    assert as_text(g) != as_text(Game.new(int.from_bytes(RAW[:4], "big") & 0x7FFFFFFF or 1, suits=4))


@pytest.mark.parametrize("bad, words", [
    ("p-abc", "26 letters"),
    ("p-" + "a" * 27, "26 letters"),
    ("p-" + "a" * 25 + "1", "a-z and 2-7"),
    ("p-" + "a" * 25 + "=", "a-z and 2-7"),
    ("q-" + "a" * 26, "'p-"),
    ("p-" + "a" * 25 + "b", "last letter"),  # 2 bits beyond the 128: not the spelling of any code
])
def test_malformed_codes_are_refused_with_a_reason(bad, words):
    with pytest.raises(ValueError, match=words):
        Game.new(bad)
    with pytest.raises(ValueError, match=words):
        parse_deal(bad)


def test_a_code_read_from_a_person_may_be_in_capitals():
    code = deal_code(RAW)
    assert parse_deal(" " + code.upper() + " ") == code


def test_position_text_carries_the_code_and_reads_it_back():
    g = Game.new(deal_code(RAW), suits=2)
    text = g.to_text()
    assert f"deal: {deal_code(RAW)}\n" in text
    assert Game.from_text(text).deal_number == deal_code(RAW)
    with pytest.raises(PositionError, match="26 letters"):
        Game.from_text(text.replace(deal_code(RAW), "p-zz"))


def test_show_and_deal_accept_a_code(capsys):
    code = deal_code(RAW)
    assert main(["show", code, "--suits", "4"]) == 0
    out = capsys.readouterr().out
    assert out == Game.new(code, suits=4).to_text()
    assert main(["show", "p-nope"]) == 2
    err = capsys.readouterr().err
    assert "26 letters" in err and err.count("\n") == 1


def test_solve_accepts_a_code(capsys):
    import json

    code = deal_code(RAW)
    assert main(["solve", code, "--suits", "1", "--seconds", "5", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["result"] == "winnable"
    g = Game.new(code, suits=1)  # the solution plays from the code's own deal
    for m in found["moves"]:
        g.play(m)
    assert g.won
    assert main(["solve", "p-" + "a" * 25 + "9", "--json"]) == 2
    assert "a-z and 2-7" in capsys.readouterr().err


def test_the_app_takes_a_code_for_deal():
    from spider_tui.cli import parse_app_args

    _args, launch = parse_app_args(["--deal", deal_code(RAW).upper()])
    assert launch.deal == deal_code(RAW)


def test_the_save_file_keeps_a_code_round():
    code = deal_code(RAW)
    state = RoundState(position=Game.new(code).to_text(), suits=1, deal=code)
    data: dict = {}
    save_round(data, state)
    assert data["round"]["deal"] == code
    assert load_round(data) == state
    data["round"]["deal"] = "p-broken"
    assert load_round(data) is None
