"""Stats, settings and the unfinished round, as pure functions on the save data dict (SPEC §7, §9).

Nothing here does I/O: pass these functions to :meth:`SaveFile.update`, e.g.
``save.update(lambda d: record_result(d, result))``, or read a dict from :meth:`SaveFile.load`.
The schema is documented in :mod:`spider_tui.store.savefile`.

What counts (SPEC §7)
---------------------

- A round counts as *played* once it has at least one move and ends: won, or left by New/Retry.
  The caller calls :func:`record_result` only then; as a guard, a result with 0 moves records
  nothing.
- *Won* rounds also set Fewest moves and Fastest time; lost rounds never touch them.
- Stats are kept per rules preset (``"classic"`` for normal play, SPEC §10) and per suit count.
- A daily-challenge round (``daily`` set) counts in the normal five AND in the daily five of its
  suit count; when won under classic rules its date is marked won for that suit count.
  Daily rounds under other presets count in that preset's daily five but mark no date: the daily
  challenge's won dates are a classic-rules record.
- Practice rounds (``--position``) are "not recorded in stats" (SPEC §9): :func:`record_result`
  records **nothing** for them, not even their time in the total play time. Total play time is
  the time of recorded rounds only, so it always matches the rounds it summarises.
- Total play time and Daily rounds won are across suit counts. Total play time adds every
  recorded round of every preset; Daily rounds won counts distinct dates won at any suit count.
- Times are stored in seconds as floats (rounded to milliseconds) and reported by
  :func:`summary` rounded to 0.1 s.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any, NamedTuple, TypeGuard

from spider_tui.store.daily import all_won_dates, coerce_date, mark_won
from spider_tui.store.savefile import is_int as _is_int
from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.engine.frozen import Frozen
from spider_tui.store.savefile import DEFAULT_SETTINGS, SUIT_KEYS

CLASSIC = "classic"




def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _valid_rules_name(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != "" and value == value.strip() and "\n" not in value


# --------------------------------------------------------------------------------------------
# Results


class RoundResult(Frozen):
    """One finished round, as the stats see it.

    ``daily`` is the daily challenge's date, ``None`` for other rounds. ``practice`` rounds
    (``--position``) are never recorded. Raises ``ValueError`` on impossible values.  Frozen.
    (A plain class, as are ``Settings`` and ``RoundState`` named tuples: the three as frozen
    dataclasses took ~5 ms to make at every start, SPEC §11.)
    """

    __slots__ = ("suits", "won", "moves", "seconds", "rules", "daily", "practice")
    suits: int
    won: bool
    moves: int
    seconds: float
    rules: str
    daily: date | None
    practice: bool

    def __init__(self, suits: int, won: bool, moves: int, seconds: float, rules: str = CLASSIC,
                 daily: date | None = None, practice: bool = False) -> None:
        if suits not in SUIT_COUNTS or not _is_int(suits):
            raise ValueError(f"suits must be 1, 2 or 4, not {suits!r}")
        if not isinstance(won, bool):
            raise ValueError(f"won must be True or False, not {won!r}")
        if not _is_int(moves) or moves < 0:
            raise ValueError(f"moves must be a whole number >= 0, not {moves!r}")
        if not _is_number(seconds) or seconds < 0:
            raise ValueError(f"seconds must be a finite number >= 0, not {seconds!r}")
        if not _valid_rules_name(rules):
            raise ValueError(f"rules must be a preset name, not {rules!r}")
        if daily is not None and (not isinstance(daily, date) or isinstance(daily, datetime)):
            raise ValueError(f"daily must be a date or None, not {daily!r}")
        put = object.__setattr__
        for name, value in zip(self.__slots__, (suits, won, moves, seconds, rules, daily, practice)):
            put(self, name, value)


def _table(data: dict[str, Any], rules: str, suits: int) -> dict[str, Any]:
    """The ``[stats.<rules>.<suits>]`` table, created when missing."""
    return data.setdefault("stats", {}).setdefault(rules, {}).setdefault(str(suits), {})


def _count(value: Any) -> int:
    return value if _is_int(value) else 0


def _add_to(table: dict[str, Any], prefix: str, result: RoundResult) -> None:
    table[prefix + "played"] = _count(table.get(prefix + "played")) + 1
    if not result.won:
        return
    table[prefix + "won"] = _count(table.get(prefix + "won")) + 1
    fewest = table.get(prefix + "fewest_moves")
    table[prefix + "fewest_moves"] = min(fewest, result.moves) if _is_int(fewest) else result.moves
    seconds = round(float(result.seconds), 3)
    fastest = table.get(prefix + "fastest_seconds")
    table[prefix + "fastest_seconds"] = min(float(fastest), seconds) if _is_number(fastest) else seconds


def record_result(data: dict[str, Any], result: RoundResult) -> dict[str, Any]:
    """Add one finished round to the stats (rules in the module docstring); returns ``data``.

    Practice rounds and rounds with no move record nothing.
    """
    if result.practice or result.moves < 1:
        return data
    table = _table(data, result.rules, result.suits)
    _add_to(table, "", result)
    if result.daily is not None:
        _add_to(table, "daily_", result)
        if result.won and result.rules == CLASSIC:
            mark_won(data, result.daily, result.suits)
    add_play_time(data, result.seconds)
    return data


def add_play_time(data: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Add ``seconds`` to ``total_play_seconds``; returns ``data``. (:func:`record_result` calls it.)"""
    if not _is_number(seconds) or seconds < 0:
        raise ValueError(f"seconds must be a finite number >= 0, not {seconds!r}")
    total = data.get("total_play_seconds")
    data["total_play_seconds"] = round((float(total) if _is_number(total) else 0.0) + seconds, 3)
    return data


def _five(table: dict[str, Any], prefix: str) -> dict[str, Any]:
    played = _count(table.get(prefix + "played"))
    won = _count(table.get(prefix + "won"))
    fewest = table.get(prefix + "fewest_moves")
    fastest = table.get(prefix + "fastest_seconds")
    return {
        "played": played,
        "won": won,
        "win_rate": round(won / played, 3) if played > 0 else None,
        "fewest_moves": fewest if _is_int(fewest) else None,
        "fastest_seconds": round(float(fastest), 1) if _is_number(fastest) else None,
    }


def summary(data: dict[str, Any], rules: str = CLASSIC) -> dict[str, Any]:
    """The stats of one rules preset in exactly the shape of SPEC §9 (``spider stats --json``)::

        {"suits": {"1": {"played", "won", "win_rate", "fewest_moves", "fastest_seconds",
                         "daily": {the same five}}, "2": {...}, "4": {...}},
         "total_play_seconds": float, "daily_rounds_won": int}

    ``None`` (JSON ``null``) where there is no value yet; ``win_rate`` is rounded to 3 decimals
    and ``None`` when nothing was played. The two totals are across suit counts and presets.
    """
    stats = data.get("stats")
    per_rules = stats.get(rules) if isinstance(stats, dict) else None
    per_rules = per_rules if isinstance(per_rules, dict) else {}
    suits: dict[str, Any] = {}
    for key in SUIT_KEYS:
        table = per_rules.get(key)
        table = table if isinstance(table, dict) else {}
        suits[key] = {**_five(table, ""), "daily": _five(table, "daily_")}
    total = data.get("total_play_seconds")
    return {
        "suits": suits,
        "total_play_seconds": round(float(total), 1) if _is_number(total) else 0.0,
        "daily_rounds_won": len(all_won_dates(data)),
    }


def stats_rules(data: dict[str, Any]) -> list[str]:
    """The rules presets that have stats, ``"classic"`` always first (for a stats screen's picker)."""
    stats = data.get("stats")
    names = [k for k, v in stats.items() if isinstance(v, dict)] if isinstance(stats, dict) else []
    return [CLASSIC] + sorted(n for n in names if n != CLASSIC)


# --------------------------------------------------------------------------------------------
# Settings


class Settings(NamedTuple):
    """The player's settings (``[settings]``), each with its default."""

    suits: int = DEFAULT_SETTINGS["suits"]
    rules: str = DEFAULT_SETTINGS["rules"]
    four_color: bool = DEFAULT_SETTINGS["four_color"]
    ascii: bool = DEFAULT_SETTINGS["ascii"]
    winnable_only: bool = DEFAULT_SETTINGS["winnable_only"]  # New deals only proved-winnable numbers (SPEC §14)
    language: str = DEFAULT_SETTINGS["language"]  # "de" | "en" chosen on the start screen; "": the locale's (SPEC §17)


SETTING_NAMES = Settings._fields
LANGUAGE_VALUES = ("", "en", "de")  # the language setting: none chosen (the locale's), English, German


def _setting_ok(name: str, value: Any) -> bool:
    if name == "suits":
        return _is_int(value) and value in SUIT_COUNTS
    if name == "rules":
        return _valid_rules_name(value)
    if name == "language":
        return value in LANGUAGE_VALUES
    return isinstance(value, bool)


def get_settings(data: dict[str, Any]) -> Settings:
    """The settings in ``data``; a missing or bad value (``suits = 3``) falls back to its default.

    The rules name is only checked to be a name; whether the engine knows that preset is the
    caller's question.
    """
    table = data.get("settings")
    table = table if isinstance(table, dict) else {}
    values = {n: table[n] for n in SETTING_NAMES if n in table and _setting_ok(n, table[n])}
    return Settings(**values)


def set_setting(data: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """Set one setting; raises ``ValueError`` for an unknown name or a bad value. Returns ``data``."""
    if name not in SETTING_NAMES:
        raise ValueError(f"unknown setting {name!r}; settings are {', '.join(SETTING_NAMES)}")
    if not _setting_ok(name, value):
        raise ValueError(f"bad value {value!r} for setting {name!r}")
    data.setdefault("settings", {})[name] = value
    return data


# --------------------------------------------------------------------------------------------
# The unfinished round


class RoundState(NamedTuple):
    """The unfinished round kept for Continue (``[round]``): its position text, not its history.

    ``deal`` is ``None`` for a position that is not a numbered deal; ``daily`` is the daily
    challenge's date or ``None``; ``practice`` marks a ``--position`` round (never recorded).
    """

    position: str
    suits: int
    rules: str = CLASSIC
    moves: int = 0
    seconds: float = 0.0
    hints: int = 0
    deal: int | str | None = None  # a deal number, or a Palast deal code "p-…" (SPEC §2)
    daily: date | None = None
    practice: bool = False
    #: The position the round started from, for Retry of a round that is not a numbered deal.
    start: str | None = None
    #: The round's actions so far, one ``MS MOVE`` a line (SPEC §16): its record when it ends.
    actions: str | None = None


_ROUND_ORDER = ("position", "deal", "daily", "suits", "rules", "moves", "seconds", "hints", "practice", "start",
                "actions")
#: The action log of an unfinished round is dropped (not the round) beyond this many characters.
ACTIONS_LIMIT = 256 * 1024


def save_round(data: dict[str, Any], state: RoundState) -> dict[str, Any]:
    """Store ``state`` as ``[round]``, replacing any earlier round whole (its keys described that
    round, so none are carried over). ``None`` values are left out. Returns ``data``."""
    values = state._asdict()
    table: dict[str, Any] = {}
    for name in _ROUND_ORDER:
        value = values[name]
        if value is None:
            continue
        if name == "daily":
            value = value.isoformat()
        elif name == "seconds":
            value = round(float(value), 3)
        table[name] = value
    data["round"] = table
    return data


def _valid_deal(deal: object) -> bool:
    """A deal number 1..2147483647 or a deal code (SPEC §2, §8)."""
    from spider_tui.engine.deal import check_deal_number

    if not (_is_int(deal) or isinstance(deal, str)):
        return False
    try:
        check_deal_number(deal)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def load_round(data: dict[str, Any]) -> RoundState | None:
    """The unfinished round, or ``None`` when there is none or ``[round]`` is malformed.

    Malformed means: no non-empty ``position`` text, ``suits`` not 1/2/4, a negative or
    non-integer count, a bad time, a ``deal`` that is neither a number 1..2147483647 nor a deal code, a ``daily`` that is not a
    ``YYYY-MM-DD`` date, or a key of the wrong type. Missing optional keys take their defaults.
    Whether the position itself is legal is the engine's question (``Game.from_text``).
    """
    table = data.get("round")
    if not isinstance(table, dict):
        return None
    position = table.get("position")
    if not isinstance(position, str) or not position.strip():
        return None
    suits = table.get("suits")
    if not _is_int(suits) or suits not in SUIT_COUNTS:
        return None
    rules = table.get("rules", CLASSIC)
    if not _valid_rules_name(rules):
        return None
    moves, hints = table.get("moves", 0), table.get("hints", 0)
    if not (_is_int(moves) and moves >= 0 and _is_int(hints) and hints >= 0):
        return None
    seconds = table.get("seconds", 0.0)
    if not _is_number(seconds) or seconds < 0:
        return None
    deal = table.get("deal")
    if deal is not None and not _valid_deal(deal):
        return None
    daily = table.get("daily")
    if daily is not None:
        daily = coerce_date(daily)
        if daily is None:
            return None
    practice = table.get("practice", False)
    if not isinstance(practice, bool):
        return None
    start = table.get("start")
    if start is not None and not isinstance(start, str):
        return None
    actions = table.get("actions")
    if actions is not None and (not isinstance(actions, str) or len(actions) > ACTIONS_LIMIT):
        actions = None  # the round stays playable; only its record is lost
    return RoundState(position=position, suits=suits, rules=rules, moves=moves, seconds=float(seconds),
                      hints=hints, deal=deal, daily=daily, practice=practice, start=start, actions=actions)

