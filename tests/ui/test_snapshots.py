"""Snapshot tests (pytest-textual-snapshot) of fixed deals, at 80×24 and 120×40.

Update after an intended change of the look: ``pytest tests/ui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_screen(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size)


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_deal_1(snap_compare, make_app, size, suits):
    assert snap_compare(make_app(deal=1, suits=suits), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_held_group_with_targets(snap_compare, make_app, size):
    # Deal 1 at 2 suits: column 9's 8s can go onto both 9s and onto the 9h.
    assert snap_compare(make_app(deal=1, suits=2), press=["9"], terminal_size=size)


def test_hint_outline(snap_compare, make_app):
    assert snap_compare(make_app(deal=1, suits=2), press=["question_mark"], terminal_size=(80, 24))


def test_ascii_four_color(snap_compare, make_app):
    assert snap_compare(make_app(deal=1, suits=4, ascii=True, four_color=True), press=["d", "1"], terminal_size=(80, 24))


def test_retry_question_over_the_table(snap_compare, make_app):
    # Issue 10: a dialog is drawn over the table, which stays visible behind it.
    assert snap_compare(make_app(deal=1, suits=2), press=["9", "5", "r"], terminal_size=(80, 24))


def test_whole_column_view(snap_compare, make_app):
    from tests.positions import LONG

    assert snap_compare(make_app(position=LONG), press=["v", "1"], terminal_size=(80, 24))
