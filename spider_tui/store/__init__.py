"""The save file and what it holds (SPEC §7, §8, §9): settings, stats, daily results, the round.

Pure Python, no Textual. Typical use::

    from spider_tui.store import SaveFile, resolve_data_dir, save_path, record_result, RoundResult

    save = SaveFile(save_path(resolve_data_dir(args.data_dir)))
    data = save.load()
    if (message := save.take_notice()):
        show(message)
    save.update(lambda d: record_result(d, RoundResult(suits=1, won=True, moves=151, seconds=812.4)))

Modules: :mod:`.paths` (where), :mod:`.savefile` (read/write, schema), :mod:`.stats` (results,
settings, round), :mod:`.daily` (daily dates), :mod:`.report` (``spider stats`` output).
"""

from spider_tui.store.daily import (
    DAILY_WINDOW,
    all_won_dates,
    check_daily,
    daily_dates,
    daily_number,
    is_daily_won,
    parse_daily,
    today,
    won_dates,
)
from spider_tui.store.paths import resolve_data_dir, save_path
from spider_tui.store.savefile import VERSION, SaveError, SaveFile, default_data
from spider_tui.store.stats import (
    RoundResult,
    RoundState,
    Settings,
    add_play_time,
    get_settings,
    load_round,
    record_result,
    save_round,
    set_setting,
    stats_rules,
    summary,
)

__all__ = [
    "DAILY_WINDOW",
    "VERSION",
    "RoundResult",
    "RoundState",
    "SaveError",
    "SaveFile",
    "Settings",
    "add_play_time",
    "all_won_dates",
    "check_daily",
    "daily_dates",
    "daily_number",
    "default_data",
    "format_seconds",
    "get_settings",
    "is_daily_won",
    "load_round",
    "parse_daily",
    "record_result",
    "resolve_data_dir",
    "save_path",
    "save_round",
    "set_setting",
    "stats_json",
    "stats_rules",
    "stats_table",
    "summary",
    "today",
    "won_dates",
]


def __getattr__(name: str):
    """The report (Rich tables, JSON) loads only when asked for: the app's start doesn't need it."""
    if name in ("format_seconds", "stats_json", "stats_table"):
        from spider_tui.store import report

        return getattr(report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
