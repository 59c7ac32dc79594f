"""The Palast's lobby and standings rows at the compact table (SPEC §17): 38 columns, whatever the
network sends (a property test over hostile values, read as the session reads them: typed by
``messages``, made visible by ``seen``)."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings, strategies as st
from rich.cells import cell_len

from spider_tui.palast.client.session import seen
from spider_tui.palast.messages import Standing, TableInfo
from spider_tui.ui.palast import lines

values = st.one_of(st.none(), st.booleans(), st.integers(-10**15, 10**15), st.text(max_size=40),
                   st.floats(allow_nan=True), st.lists(st.text(max_size=5), max_size=20))


def no_controls(row: str) -> bool:
    return all(unicodedata.category(c) not in ("Cc", "Cs") for c in row)


@settings(deadline=None, max_examples=200)
@given(id=st.integers(1, 999), host=values, suits=st.sampled_from([1, 2, 4]), rules=values,
       rnd=st.integers(0, 9), rounds=st.integers(1, 9), players=st.lists(st.text(max_size=8), max_size=9),
       seats=st.integers(2, 9))
def test_a_waiting_table_fits_38_columns(id, host, suits, rules, rnd, rounds, players, seats):
    row = lines.lobby_row_narrow(seen(TableInfo.from_json({
        "id": id, "host": host, "suits": suits, "rules": rules, "round": rnd, "rounds": rounds, "players": players,
        "seats": seats, "state": "waiting"})))
    assert cell_len(row) <= 38 and no_controls(row)
    assert cell_len(lines.LOBBY_HEADER_NARROW) <= 38


@settings(deadline=None, max_examples=200)
@given(player=st.text(max_size=40), score=st.integers(-9999, 99999), total=st.integers(-99999, 999999),
       moves=st.integers(0, 9999), seconds=st.one_of(values, st.floats(0, 3600)), solved=st.booleans())
def test_a_standings_row_fits_38_columns(player, score, total, moves, seconds, solved):
    # a player that isn't a string is no standing (the typed reading leaves the row out)
    row = lines.standings_row_narrow(seen(Standing.from_json({"player": player, "score": score, "total": total,
                                                              "moves": moves, "seconds": seconds, "solved": solved})))
    assert cell_len(row) <= 38 and no_controls(row)
    assert cell_len(lines.STANDINGS_HEADER_NARROW) <= 38


def test_the_narrow_row_says_what_the_wide_one_says():
    table = TableInfo(id=7, host="Bo", suits=2, rules="joker", round=1, rounds=3, players=["Bo", "Cy"], seats=4,
                      state="waiting", training=True)
    assert lines.lobby_row_narrow(table) == "  7 Bo        2     joker    1/3   2/4 T"
    assert lines.standings_row_narrow(Standing(player="Anna", score=12, total=30, moves=44, solved=True,
                                               seconds=125)) == "Anna           12     30    44   2:05"
