"""The daily challenge's dates (SPEC §7): YYYYMMDD numbers, a 30-date window, won dates."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from spider_tui.store import (
    DAILY_WINDOW,
    RoundResult,
    check_daily,
    daily_dates,
    daily_number,
    is_daily_won,
    parse_daily,
    record_result,
    won_dates,
)
from spider_tui.store.daily import all_won_dates, today

TODAY = date(2026, 11, 29)


def test_daily_number():
    assert daily_number(date(2026, 11, 29)) == 20261129
    assert daily_number(date(2027, 1, 5)) == 20270105


def test_window_edges():
    assert DAILY_WINDOW == 30
    assert check_daily(TODAY, TODAY) is None
    assert check_daily(TODAY - timedelta(days=29), TODAY) is None
    too_old = check_daily(TODAY - timedelta(days=30), TODAY)
    future = check_daily(TODAY + timedelta(days=1), TODAY)
    assert too_old and "\n" not in too_old and "2026-10-30" in too_old
    assert future and "\n" not in future and "future" in future


def test_daily_dates_today_first_then_back():
    dates = daily_dates(date(2027, 1, 10))
    assert len(dates) == 30
    assert dates[0] == date(2027, 1, 10)
    assert dates[-1] == date(2026, 12, 12)
    assert all(a - b == timedelta(days=1) for a, b in zip(dates, dates[1:]))
    assert all(check_daily(d, date(2027, 1, 10)) is None for d in dates)


def test_parse_daily():
    assert parse_daily("2026-11-29") == TODAY
    assert parse_daily(" 2026-11-29\n") == TODAY


@pytest.mark.parametrize("text", ["20261129", "2026-1-5", "29.11.2026", "today", "", "2026-11-29T10:00"])
def test_parse_daily_bad_form(text):
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        parse_daily(text)


def test_parse_daily_not_a_calendar_date():
    with pytest.raises(ValueError, match="calendar"):
        parse_daily("2026-02-30")


def test_today_helper_is_a_date():
    assert isinstance(today(), date)


def test_won_dates_per_suit_count_and_distinct_across():
    data: dict = {}
    record_result(data, RoundResult(suits=1, won=True, moves=100, seconds=60, daily=TODAY))
    record_result(data, RoundResult(suits=4, won=True, moves=100, seconds=60, daily=TODAY))
    record_result(data, RoundResult(suits=1, won=True, moves=90, seconds=60, daily=TODAY))  # again
    record_result(data, RoundResult(suits=2, won=False, moves=100, seconds=60, daily=TODAY - timedelta(1)))
    assert won_dates(data, 1) == {TODAY}
    assert won_dates(data, 2) == set()
    assert won_dates(data, 4) == {TODAY}
    assert all_won_dates(data) == {TODAY}
    assert data["daily"]["won"]["1"] == ["2026-11-29"]
    assert is_daily_won(data, TODAY, 1) and not is_daily_won(data, TODAY, 2)


def test_won_dates_skip_garbage_and_keep_it():
    data = {"daily": {"won": {"1": ["2026-11-28", "not a date", date(2026, 11, 27)]}}}
    assert won_dates(data, 1) == {date(2026, 11, 28), date(2026, 11, 27)}
    record_result(data, RoundResult(suits=1, won=True, moves=5, seconds=1, daily=TODAY))
    assert data["daily"]["won"]["1"] == ["2026-11-27", "2026-11-28", "2026-11-29", "not a date"]


def test_won_dates_missing_tables():
    assert won_dates({}, 1) == set()
    assert won_dates({"daily": {}}, 2) == set()
    assert won_dates({"daily": {"won": {"4": "x"}}}, 4) == set()
