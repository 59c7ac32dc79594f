"""The daily challenge's dates (SPEC §7): one deal per local date, numbered ``YYYYMMDD``.

Today and the 29 days before it are open (:data:`DAILY_WINDOW` dates in all). Every function that
needs "today" takes it as an argument; only :func:`today` reads the clock. Won dates are kept per
suit count in the save file's ``[daily.won]`` table (classic rules); see
:mod:`spider_tui.store.savefile` for the schema and :func:`spider_tui.store.stats.record_result`
for how they are added.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from spider_tui.i18n import _
from spider_tui.engine.cards import SUIT_COUNTS

DAILY_WINDOW = 30
"""How many dates are open: today and the ``DAILY_WINDOW - 1`` days before it."""

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def today() -> date:
    """The local date now (the only function here that reads the clock)."""
    return date.today()


def daily_number(d: date) -> int:
    """The deal number of date ``d``'s daily challenge: ``YYYYMMDD`` as an int.

    >>> daily_number(date(2026, 11, 29))
    20261129
    """
    return d.year * 10000 + d.month * 100 + d.day


def daily_dates(today: date) -> list[date]:
    """The open dates, ``today`` first, then each day back: :data:`DAILY_WINDOW` dates in all."""
    return [today - timedelta(days=n) for n in range(DAILY_WINDOW)]


def check_daily(d: date, today: date) -> str | None:
    """``None`` when date ``d`` is open on ``today``; otherwise a one-line reason.

    >>> check_daily(date(2026, 11, 30), date(2026, 11, 29))
    'The daily challenge for 2026-11-30 is not open yet: it is in the future.'
    """
    if d > today:
        return _("The daily challenge for {date} is not open yet: it is in the future.").format(date=d.isoformat())
    oldest = today - timedelta(days=DAILY_WINDOW - 1)
    if d < oldest:
        return _("The daily challenge for {date} is closed: only today and the {days} days before are open "
                 "(from {oldest}).").format(date=d.isoformat(), days=DAILY_WINDOW - 1, oldest=oldest.isoformat())
    return None


def parse_daily(text: str) -> date:
    """Parse a ``YYYY-MM-DD`` date; raise ``ValueError`` with a clear one-line message otherwise.

    Only checks the form and the calendar; whether the date is open is :func:`check_daily`'s job.
    """
    value = text.strip()
    if not _ISO_DATE.fullmatch(value):
        raise ValueError(f"{text!r} is not a date in the form YYYY-MM-DD (for example 2026-11-29).")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{text!r} is not a real calendar date.") from None


def coerce_date(item: Any) -> date | None:
    """A stored date (ISO ``YYYY-MM-DD`` string or TOML date) as a date; ``None`` if it is not one."""
    if isinstance(item, datetime):
        return None
    if isinstance(item, date):
        return item
    if isinstance(item, str):
        try:
            return parse_daily(item)
        except ValueError:
            return None
    return None


def won_dates(data: dict[str, Any], suits: int) -> set[date]:
    """The dates whose daily challenge was won at ``suits`` suits (classic rules).

    Entries that are not valid dates are skipped, never fatal.
    """
    daily = data.get("daily")
    won = daily.get("won") if isinstance(daily, dict) else None
    items = won.get(str(suits)) if isinstance(won, dict) else None
    if not isinstance(items, list):
        return set()
    return {d for d in map(coerce_date, items) if d is not None}


def all_won_dates(data: dict[str, Any]) -> set[date]:
    """The distinct dates won at any suit count (the stats' "Daily rounds won" counts these)."""
    result: set[date] = set()
    for suits in SUIT_COUNTS:
        result |= won_dates(data, suits)
    return result


def is_daily_won(data: dict[str, Any], d: date, suits: int) -> bool:
    """Whether date ``d`` is won at ``suits`` suits ("Today done" on the start screen)."""
    return d in won_dates(data, suits)


def mark_won(data: dict[str, Any], d: date, suits: int) -> None:
    """Add ``d`` to the won dates for ``suits`` (kept as sorted, unique ISO strings)."""
    won = data.setdefault("daily", {}).setdefault("won", {})
    key = str(suits)
    dates = won_dates(data, suits) | {d}
    existing = won.get(key)
    kept_unparsable = [x for x in existing if coerce_date(x) is None] if isinstance(existing, list) else []
    won[key] = sorted(x.isoformat() for x in dates) + kept_unparsable
