"""The stats for people and for scripts: ``spider stats`` and ``spider stats --json`` (SPEC §9).

Both read only the data dict (from :meth:`SaveFile.load`); with no save file they show zeros and
"no value yet" marks. No streaks, no score (SPEC §7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spider_tui.i18n import N_, _
from spider_tui.safe_text import safe
from spider_tui.store.savefile import SUIT_KEYS
from spider_tui.store.stats import CLASSIC, stats_rules, summary

if TYPE_CHECKING:  # rich's Table only for `spider stats` and the stats screen, not at start
    from rich.table import Table

NO_VALUE = "—"
NO_VALUE_ASCII = "-"


def stats_json(data: dict[str, Any], rules: str = CLASSIC) -> str:
    """``spider stats --json``: :func:`~spider_tui.store.stats.summary` as one line of JSON.

    Classic stays under ``suits`` (SPEC §9); beside it ``rules`` holds the stats each special
    rules preset keeps apart (SPEC §10), in the same per-suit-count shape::

        {"suits": {...}, "total_play_seconds": ..., "daily_rounds_won": ...,
         "rules": {"relaxed+open": {"1": {...}, "2": {...}, "4": {...}}}}
    """
    out = summary(data, rules)
    if rules == CLASSIC:
        out["rules"] = {name: summary(data, name)["suits"] for name in stats_rules(data) if name != CLASSIC}
    import json  # here: the game's start never needs it (SPEC §11)

    return json.dumps(out)


def special_rules(data: dict[str, Any]) -> list[str]:
    """The special rules presets that have stats of their own, in a stable order."""
    return [name for name in stats_rules(data) if name != CLASSIC]


def format_seconds(seconds: float) -> str:
    """A duration as ``m:ss`` below an hour, ``h:mm:ss`` from an hour on, to the nearest second
    (a half rounds up).  One rounding everywhere: the value is first taken to the millisecond,
    as the save file keeps it, so a time reads the same in the Won panel and as ``Fastest`` in
    the stats (29.4996 s and its saved 29.5 are both ``0:30``; Python's ``round`` took 29.5 to
    30 but 28.5 to 28).

    >>> format_seconds(812.4), format_seconds(45), format_seconds(3723)
    ('13:32', '0:45', '1:02:03')
    >>> format_seconds(29.4996), format_seconds(29.5), format_seconds(28.5), format_seconds(29.4994)
    ('0:30', '0:30', '0:29', '0:29')
    """
    total = int((round(float(seconds), 3) + 0.5) // 1)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def _rows(five: dict[str, Any], none: str) -> list[str]:
    rate = five["win_rate"]
    return [
        str(five["played"]),
        str(five["won"]),
        none if rate is None else f"{rate * 100:.1f}%",
        none if five["fewest_moves"] is None else str(five["fewest_moves"]),
        none if five["fastest_seconds"] is None else format_seconds(five["fastest_seconds"]),
    ]


_LABELS = (N_("Played"), N_("Won"), N_("Win rate"), N_("Fewest moves"), N_("Fastest time"))
_DAILY_LABELS = (N_("Daily: played"), N_("Daily: won"), N_("Daily: win rate"), N_("Daily: fewest moves"),
                 N_("Daily: fastest time"))


def stats_table(data: dict[str, Any], rules: str = CLASSIC, *, ascii: bool = False, levels: bool = True) -> Table:
    """``spider stats``: a rich Table with one column per suit count.

    Rows: the five stats, the same five for daily rounds, then Total play time and Daily rounds won
    (these two are across suit counts, so their value sits in the first column). ``ascii=True``
    uses ASCII box lines and ``-`` for "no value yet". ``levels``: the classic table's columns
    are named as the path's levels (``1 suit, beginner``; SPEC §15).
    """
    none = NO_VALUE_ASCII if ascii else NO_VALUE
    s = summary(data, rules)
    # A preset name is a key from the save file: never markup, never raw control characters.
    title = safe(_("Spider stats") if rules == CLASSIC else _("Spider stats ({rules} rules)").format(rules=rules),
                 newlines=False)
    title.end = "\n"  # safe() text ends without one: the ASCII box's top edge went onto the title line
    from rich import box
    from rich.table import Table

    table = Table(title=title, box=box.ASCII if ascii else box.SIMPLE_HEAD, title_justify="left")
    table.add_column("")
    from .path import LEVELS  # the path (SPEC §15): the classic suit counts are its levels

    classic = rules == CLASSIC and levels  # the path's level names (they need some 64 columns)
    for level in LEVELS:
        table.add_column(f"{level.name}, {_(level.tag)}" if classic and level.tag else level.name, justify="right")
    per_suit = [s["suits"][k] for k in SUIT_KEYS]
    normal = [_rows(p, none) for p in per_suit]
    daily = [_rows(p["daily"], none) for p in per_suit]
    for i, label in enumerate(_LABELS):
        table.add_row(_(label), *(col[i] for col in normal), end_section=i == len(_LABELS) - 1)
    for i, label in enumerate(_DAILY_LABELS):
        table.add_row(_(label), *(col[i] for col in daily), end_section=i == len(_DAILY_LABELS) - 1)
    table.add_row(_("Total play time"), format_seconds(s["total_play_seconds"]), "", "")
    table.add_row(_("Daily rounds won"), str(s["daily_rounds_won"]), "", "")
    return table
