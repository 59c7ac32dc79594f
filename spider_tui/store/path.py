"""The path (SPEC §15): the suit counts read as levels, what good play wins at each and how long
a round takes, beside the player's own record; one quiet suggestion of the next level after
three wins at a level, shown once.  Every level is always open.  Plain Python: the start screen
and the stats (``report.py``: the levels head the classic table) only show what this says.

>>> data = {}
>>> [level_line(lv, data) for lv in LEVELS]
['1 suit   beginner     nearly all       not played yet', '2 suits               about 4 in 5     not played yet', '4 suits  competition  about 1 in 3     not played yet']
>>> suggestion(data, 1) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spider_tui.i18n import N_, _, ngettext

from .marks import mark, marked
from .stats import summary

#: Wins at a level before the next one is suggested (once).
SUGGEST_AFTER = 3
ROUND_TIME = N_("A round takes 10–25 minutes. Every level is open.")  # shown through _()
HEAD = N_("good play wins")


@dataclass(frozen=True)
class Level:
    suits: int
    tag: str  # "beginner", "competition" or ""
    good_play_wins: str  # what good play wins at this level

    @property
    def name(self) -> str:
        return ngettext("{n} suit", "{n} suits", self.suits).format(n=self.suits)


LEVELS = (
    Level(1, N_("beginner"), N_("nearly all")),
    Level(2, "", N_("about 4 in 5")),
    Level(4, N_("competition"), N_("about 1 in 3")),
)


def level_of(suits: int) -> Level:
    return next(lv for lv in LEVELS if lv.suits == suits)


def record(data: dict[str, Any], suits: int) -> tuple[int, int]:
    """(won, played) at this level: classic rounds at this suit count, daily ones included."""
    five = summary(data)["suits"][str(suits)]
    return five["won"], five["played"]


def record_text(data: dict[str, Any], suits: int) -> str:
    """The player's record at a level: ``won 3 of 5`` or ``not played yet``."""
    won, played = record(data, suits)
    return _("won {won} of {played}").format(won=won, played=played) if played else _("not played yet")


def level_line(level: Level, data: dict[str, Any]) -> str:
    """One level of the path as the start screen shows it beside its key."""
    return f"{level.name:<8} {_(level.tag):<12} {_(level.good_play_wins):<15}  {record_text(data, level.suits)}"


def head_line() -> str:
    """The line over the levels (same columns as :func:`level_line`)."""
    return f"{_('Level'):<8} {'':<12} {_(HEAD):<15}  {_('you')}"


def _suggested(data: dict[str, Any]) -> list[int]:
    return marked(data, "path", "suggested", int)


def suggestion(data: dict[str, Any], suits: int) -> str | None:
    """The quiet suggestion for a player at level ``suits``: after 3 wins there (not before),
    the next level, unless it was suggested already (:func:`mark_suggested`) or there is none."""
    later = [lv for lv in LEVELS if lv.suits > suits]
    if not later or suits in _suggested(data):
        return None
    won, _played = record(data, suits)
    if won < SUGGEST_AFTER:
        return None
    nxt = later[0]
    return _("{won} wins at {level}: try {next} when you like (key {key}).").format(
        won=won, level=level_of(suits).name, next=nxt.name, key=nxt.suits)


def mark_suggested(data: dict[str, Any], suits: int) -> None:
    """The suggestion for level ``suits`` was shown: never again."""
    mark(data, "path", "suggested", suits)