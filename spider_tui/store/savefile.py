"""The save file: TOML, atomic, locked, versioned (SPEC §8).

One file, ``save.toml`` in the data directory, holds settings, stats, daily results and the
unfinished round. It is plain TOML with stable key names so a player can read (and, with care, edit)
it. This module only reads, checks and writes the file; what the tables mean and how results are
added lives in :mod:`spider_tui.store.stats` and :mod:`spider_tui.store.daily`.

Schema (version 1)
==================

TOML has no null: a value that does not exist yet (no win, so no fewest moves; a round that is not
a numbered deal) is simply **left out**. Readers treat a missing key as "no value yet" / default.

.. code-block:: toml

    # Spider (spider-tui) save file. ...
    version = 1                       # int; files with a newer version are kept aside, not read
    total_play_seconds = 2711.0       # float: all recorded rounds, every rules preset and suit count

    [settings]
    suits = 1                         # 1 | 2 | 4, for the next round
    rules = "classic"                 # rules preset name for the next round
    four_color = false
    ascii = false
    winnable_only = false             # New deals only numbers the solver proved winnable
    language = ""                     # "de" | "en" chosen on the start screen; "": the locale's

    [stats.classic.1]                 # [stats.<rules preset>.<suit count "1"|"2"|"4">]
    played = 3
    won = 1
    fewest_moves = 151                # only from won rounds; absent until the first win
    fastest_seconds = 812.4           # only from won rounds; absent until the first win
    daily_played = 1                  # the same four for daily-challenge rounds (a subset of the above)
    daily_won = 1
    daily_fewest_moves = 151
    daily_fastest_seconds = 812.4

    [daily.won]                       # dates won in the daily challenge, classic rules, per suit count
    1 = ["2026-11-28", "2026-11-29"]  # ISO dates, sorted, no duplicates
    4 = ["2026-11-29"]

    [rounds.3f9a0c1d2e4b]             # one unfinished round per live game, under its token (absent when none)
    saved_at = 1764400000.0           # when it was written (epoch seconds): Continue offers the latest
    position = '''
    suits: 1
    ...
    '''                               # position notation (SPEC §3), a multi-line string; no undo history
    deal = 1234                       # absent for a position that is not a numbered deal
    daily = "2026-11-29"              # absent unless it is a daily-challenge round
    suits = 1
    rules = "classic"
    moves = 17
    seconds = 95.2
    hints = 2
    practice = false                  # true for --position rounds: they are never recorded

    [palast]                          # the Palast (SPEC §13): see spider_tui/store/palast.py
    last = "ws://127.0.0.1:8765"
    [palast.servers."ws://127.0.0.1:8765"]
    name = "Anna"                     # the name and secret token kept per server
    token = "u53JU5..."

Checking a file
---------------

:meth:`SaveFile.load` rejects (keeps aside as ``save.toml.bad-<timestamp>`` and starts fresh) only a
file that is not a save at all: not UTF-8 TOML, nested too deeply, or a ``version`` that is not an
integer 1..:data:`VERSION`. A missing ``version`` (e.g. an empty file) reads as the current version.

A bad *value* costs only itself (:func:`clean_data`): a known key of the wrong type
(``suits = "2"``), a negative count or one at/beyond 2**63, a time that is negative or not finite,
``won`` above ``played``, a known table that is not a table. It is dropped, the rest is kept, the
original file is copied to ``save.toml.bad-<timestamp>``, the file is rewritten without it, and
:attr:`SaveFile.notice` names the dropped keys. Values of the right type the readers can't use
(``suits = 3``, an unknown rules name from a newer version) are kept in the file; the readers in
:mod:`~spider_tui.store.stats` fall back to defaults. The ``[rounds.<token>]`` tables' fields (an old file's single ``[round]`` is read as
one of them) are checked
by :func:`~spider_tui.store.stats.load_round`, which returns ``None`` for a malformed round.

Keys this version does not know, at the top level or inside known tables, are kept on every write.

Writing
-------

:meth:`SaveFile.update` is the only way to write. It takes an exclusive ``fcntl.flock`` on
``save.toml.lock`` (a separate, permanent file in the same directory, opened with ``O_NOFOLLOW``
and refused unless it is a regular file), reads the file as it is on
disk *now*, applies the caller's change function, writes a temp file in the same directory, flushes
and fsyncs it, ``os.replace``-s it over ``save.toml`` and fsyncs the directory. So two instances
(two SSH logins) never lose each other's results: each expresses its change as a function of the
fresh file instead of writing back a stale copy. A crash at any point leaves either the old or the
new file, never a half-written one; stray temp files from a killed writer are removed by the next
writer (under the lock, so no live writer can own them).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import re
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeGuard

from spider_tui.i18n import _
from spider_tui.engine.cards import SUIT_COUNTS


VERSION = 1
"""The save-file format version this code writes and the newest it reads."""

SUIT_KEYS = tuple(str(k) for k in SUIT_COUNTS)  # the save file's tables per suit count
"""Suit counts as TOML keys."""

DEFAULT_SETTINGS: dict[str, Any] = {
    "suits": 1, "rules": "classic", "four_color": True, "ascii": False,  # four colours: ♠ and ♣ apart at 4 suits
    "winnable_only": False, "language": "",  # "": the locale's language (SPEC §17)
}

HEADER = (
    "# Spider (spider-tui) save file. Plain TOML; keys are stable. Edit only while spider is not running.\n"
    "# Values that do not exist yet (no win, no deal number) are left out. Schema: spider_tui/store/savefile.py\n"
)

_TOP_ORDER = ("version", "total_play_seconds", "settings", "stats", "daily", "round", "rounds")
_TMP_PREFIX = ".save.toml."
_TMP_SUFFIX = ".tmp"

_INT_STAT_KEYS = ("played", "won", "fewest_moves", "daily_played", "daily_won", "daily_fewest_moves")
_TIME_STAT_KEYS = ("fastest_seconds", "daily_fastest_seconds")
_SETTING_TYPES: dict[str, type] = {"suits": int, "rules": str, "four_color": bool, "ascii": bool, "winnable_only": bool,
                                   "language": str}


class SaveError(Exception):
    """The save file could not be read or written. ``str(error)`` is one sentence for the player."""


class BadSaveFile(ValueError):
    """Internal: the file's bytes are not a save file we can read. The message says why."""

    def __init__(self, reason: str, *, newer: bool = False, syntax: bool = False) -> None:
        super().__init__(reason)
        self.newer = newer
        self.syntax = syntax  # not valid TOML (a salvage may read the rest)


def default_data() -> dict[str, Any]:
    """A fresh save: the current version and default settings; everything else starts absent."""
    return {"version": VERSION, "settings": dict(DEFAULT_SETTINGS)}


# --------------------------------------------------------------------------------------------
# Checking and (de)serialising


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number (TOML integer), not a bool.

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


_is_int = is_int


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


COUNT_LIMIT = 2**63
"""Counts at or beyond this (TOML's 64-bit integers) are bad values."""


def _is_count(value: Any) -> bool:
    return _is_int(value) and 0 <= value < COUNT_LIMIT


def _is_time(value: Any) -> bool:
    return _is_number(value) and 0 <= value < COUNT_LIMIT and value == value  # NaN != NaN


def check_data(data: Any) -> None:
    """Raise :class:`BadSaveFile` if ``data`` is not a readable version-1 save at all.

    That is: not a table, or a version that is not a whole number 1..:data:`VERSION`. Every other
    fault is a bad *value*, dropped by :func:`clean_data` while the rest is kept.
    """
    if not isinstance(data, dict):
        raise BadSaveFile("it is not a TOML table")
    version = data.get("version", VERSION)
    if not _is_int(version):
        raise BadSaveFile("its version is not a whole number")
    if version > VERSION:
        raise BadSaveFile(f"it was written by a newer spider (format version {version})", newer=True)
    if version < 1:
        raise BadSaveFile(f"its version {version} is not a known format version")
    if _depth(data) > MAX_DEPTH:
        raise BadSaveFile("it is nested too deeply to read")


MAX_DEPTH = 32
"""Tables and lists nested deeper than this are not a save file (and would not write back)."""


def _depth(value: Any) -> int:
    """How deeply tables and lists nest in ``value`` (without recursion; stops past MAX_DEPTH)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            level += 1
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def clean_data(data: dict[str, Any]) -> list[str]:
    """Drop the bad values of a checked save (in place); return their dotted names, in file order.

    Bad: a known key of the wrong type (``suits = "2"``), a count that is negative or at/beyond
    2**63, a time that is negative or not finite, ``won`` above ``played``, a table that is not a
    table. Values of the right type the readers don't use (``suits = 3``, an unknown rules name)
    are kept: the readers fall back to defaults, and a newer spider may know them.
    """
    dropped: list[str] = []

    def drop(table: dict[str, Any], key: str, name: str) -> None:
        del table[key]
        dropped.append(name)

    if "total_play_seconds" in data and not _is_time(data["total_play_seconds"]):
        drop(data, "total_play_seconds", "total_play_seconds")

    if "settings" in data and not isinstance(data["settings"], dict):
        drop(data, "settings", "settings")
    settings = data.get("settings", {})
    for key, kind in _SETTING_TYPES.items():
        if key in settings:
            value = settings[key]
            ok = _is_int(value) and abs(value) < COUNT_LIMIT if kind is int else isinstance(value, kind)
            if not ok:
                drop(settings, key, f"settings.{key}")

    if "stats" in data and not isinstance(data["stats"], dict):
        drop(data, "stats", "stats")
    stats = data.get("stats", {})
    for rules in list(stats):
        per_rules = stats[rules]
        if not isinstance(per_rules, dict):
            drop(stats, rules, f"stats.{rules}")
            continue
        for suits in SUIT_KEYS:
            if suits not in per_rules:
                continue
            table = per_rules[suits]
            where = f"stats.{rules}.{suits}"
            if not isinstance(table, dict):
                drop(per_rules, suits, where)
                continue
            for key in _INT_STAT_KEYS:
                if key in table and not _is_count(table[key]):
                    drop(table, key, f"{where}.{key}")
            for key in _TIME_STAT_KEYS:
                if key in table and not _is_time(table[key]):
                    drop(table, key, f"{where}.{key}")
            for prefix in ("", "daily_"):
                won, played = table.get(prefix + "won"), table.get(prefix + "played", 0)
                if won is not None and won > played:
                    drop(table, prefix + "won", f"{where}.{prefix}won")

    if "daily" in data and not isinstance(data["daily"], dict):
        drop(data, "daily", "daily")
    daily = data.get("daily", {})
    if "won" in daily and not isinstance(daily["won"], dict):
        drop(daily, "won", "daily.won")
    won_dates = daily.get("won", {})
    for suits in SUIT_KEYS:
        if suits in won_dates:
            dates = won_dates[suits]
            if not isinstance(dates, list) or not all(isinstance(d, (str, date)) for d in dates):
                drop(won_dates, suits, f"daily.won.{suits}")

    if "round" in data and not isinstance(data["round"], dict):
        drop(data, "round", "round")
    if "rounds" in data and not isinstance(data["rounds"], dict):
        drop(data, "rounds", "rounds")
    rounds = data.get("rounds", {})
    for token in list(rounds):
        if not isinstance(rounds[token], dict):
            drop(rounds, token, f"rounds.{token}")
    return dropped


def parse_bytes(raw: bytes) -> dict[str, Any]:
    """Parse and check the file's bytes; raise :class:`BadSaveFile` when they are not a save.

    The result always has ``version`` set (to :data:`VERSION`). Bad values are not dropped here
    (see :func:`read_bytes`).
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadSaveFile("it is not UTF-8 text") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        detail = str(exc).replace(" (at ", " at ").rstrip(")")
        raise BadSaveFile(f"it is not valid TOML: {detail[:1].lower()}{detail[1:]}", syntax=True) from exc
    except RecursionError as exc:  # x = [[[[...]]]] nested hundreds deep
        raise BadSaveFile("it is nested too deeply to read") from exc
    except (ValueError, MemoryError) as exc:  # anything else the reader can raise on odd input
        raise BadSaveFile(f"it could not be read ({type(exc).__name__})") from exc
    check_data(data)
    data["version"] = VERSION
    return data


#: A TOML error's place, as ``tomllib`` says it.
_AT_LINE = re.compile(r"at line (\d+)")
#: Lines left out at most while salvaging (a file worse than this is not a save any more).
MAX_SALVAGE = 200


def salvage_text(text: str) -> tuple[dict[str, Any], list[int]]:
    r"""Read TOML that doesn't parse by leaving out the lines it fails on, one at a time: (what
    parses, the line numbers left out).  A bad table header leaves out its whole table (its keys
    must not land in the table above).  Raises ``tomllib.TOMLDecodeError`` when that doesn't
    get it read (an error with no line, or too many lines left out).

    >>> salvage_text('a = 1\n[stats.1]\nwon = = 1\nplayed = 2\n')
    ({'a': 1, 'stats': {'1': {'played': 2}}}, [3])
    """
    lines = text.split("\n")
    left_out: list[int] = []
    while True:
        try:
            return tomllib.loads("\n".join(lines)), left_out
        except tomllib.TOMLDecodeError as exc:
            found = _AT_LINE.search(str(exc))
            at = int(found.group(1)) - 1 if found else -1
            if not 0 <= at < len(lines) or not lines[at].strip() or len(left_out) >= MAX_SALVAGE:
                raise
            end = at + 1
            if lines[at].lstrip().startswith("["):
                while end < len(lines) and not lines[end].lstrip().startswith("["):
                    end += 1
            for i in range(at, end):
                if lines[i].strip() and not lines[i].lstrip().startswith("#"):
                    left_out.append(i + 1)
                lines[i] = ""


def read_bytes(raw: bytes) -> tuple[dict[str, Any], list[str]]:
    """:func:`parse_bytes`, then :func:`clean_data`: (data with its bad values dropped, their names).

    A file that is UTF-8 but not valid TOML is salvaged (:func:`salvage_text`): the tables and
    keys that parse are kept and the lines left out are named (``line 15``) with the bad values."""
    try:
        data = parse_bytes(raw)
        lines: list[int] = []
    except BadSaveFile as bad:
        if not bad.syntax:
            raise
        try:
            data, lines = salvage_text(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, RecursionError, ValueError, MemoryError):
            raise bad from None
        if not data:  # nothing could be read: not a save file
            raise bad
        check_data(data)
        data["version"] = VERSION
    return data, [f"line {n}" for n in lines] + clean_data(data)


def dump_text(data: dict[str, Any]) -> str:
    """Serialise ``data`` as the save file's text: a comment header, known keys in a fixed order.

    Unknown top-level keys follow the known ones in their own order. Multi-line strings (the
    round's position) are written as TOML multi-line strings so the file stays readable.
    """
    ordered: dict[str, Any] = {key: data[key] for key in _TOP_ORDER if key in data}
    ordered["version"] = VERSION
    ordered.update((key, value) for key, value in data.items() if key not in ordered)
    import tomli_w  # only when writing: not on the way to the first frame

    return HEADER + tomli_w.dumps(ordered, multiline_strings=True)


# --------------------------------------------------------------------------------------------
# The file


class SaveFile:
    """The save file at ``path`` (usually ``<data dir>/save.toml``).

    Example::

        save = SaveFile(save_path(data_dir))
        data = save.load()                                 # read; writes only to set a bad file aside
        save.update(lambda d: record_result(d, result))    # read-modify-write under the lock
        message = save.take_notice()                       # "The save file could not be read; ..." once

    ``notice`` holds one sentence to show the player once, set when a bad file was kept aside;
    :meth:`take_notice` returns it and clears it.
    """

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float = 10.0,
                 clock: Callable[[], datetime] = datetime.now) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.lock_timeout = lock_timeout
        self.notice: str | None = None
        self._clock = clock

    def __repr__(self) -> str:
        return f"SaveFile({str(self.path)!r})"

    # -- notice ------------------------------------------------------------------------------

    def take_notice(self) -> str | None:
        """Return the pending notice for the player (once), then ``None`` until a new one."""
        notice, self.notice = self.notice, None
        return notice

    # -- reading -----------------------------------------------------------------------------

    def _read_raw(self) -> bytes | None:
        """The file's bytes, or ``None`` when there is no file. Other OS errors -> SaveError."""
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SaveError(_("Could not read the save file {path}: {why}.").format(path=self.path, why=_why(exc))) from exc

    def load(self) -> dict[str, Any]:
        """Read the save file and return its data (a fresh default when there is no file).

        Reading needs no lock: writes replace the file atomically, so a reader sees the old or
        the new file whole. A file that is not a readable save is renamed to
        ``save.toml.bad-<timestamp>`` (under the lock, after checking it is still bad), a fresh
        default is returned and :attr:`notice` says so. Raises :class:`SaveError` when the file
        exists but cannot be read, or a bad file cannot be moved aside.
        """
        raw = self._read_raw()
        if raw is None:
            return default_data()
        try:
            data, dropped = read_bytes(raw)
            if not dropped:
                return data
        except BadSaveFile:
            pass
        # Bad as read without the lock: recheck and set aside under the lock, so a good file
        # written meanwhile by another instance is never moved away.
        with self._locked():
            return self._read_locked()

    def _read_locked(self) -> dict[str, Any]:
        """Read under the lock. A file that is not a save is kept aside and a fresh default
        returned; a file with bad values is copied aside and rewritten without them."""
        raw = self._read_raw()
        if raw is None:
            return default_data()
        try:
            data, dropped = read_bytes(raw)
        except BadSaveFile as bad:
            kept = self._keep_aside()
            if bad.newer:
                self.notice = _("The save file was written by a newer version of spider; it was kept as "
                                "{kept} and a new one was started.").format(kept=kept.name)
            else:
                self.notice = _("The save file could not be read ({why}); it was kept as {kept} "
                                "and a new one was started.").format(why=bad, kept=kept.name)
            return default_data()
        if dropped:
            kept = self._keep_copy(raw)
            self._write_atomic(dump_text(data).encode("utf-8"))
            self.notice = _("Save file: {names} could not be read and was left out; all else kept. "
                            "Original: {kept}").format(names=_names(dropped), kept=kept.name)
        return data

    def read(self) -> dict[str, Any]:
        """Read the save file for a read-only command (``spider stats``, ``league``): the same
        data :meth:`load` gives (what parses is salvaged, bad values dropped), but the file is
        never moved, copied or written; :attr:`notice` says what was left out."""
        raw = self._read_raw()
        if raw is None:
            return default_data()
        try:
            data, dropped = read_bytes(raw)
        except BadSaveFile as bad:
            self.notice = _("The save file could not be read ({reason}); it was left as it is.").format(reason=bad)
            return default_data()
        if dropped:
            self.notice = _("Parts of the save file could not be read ({names}) and are left out here; "
                            "the file was left as it is.").format(names=_names(dropped))
        return data

    def _bad_name(self) -> Path:
        """A free name ``save.toml.bad-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... if taken)."""
        stamp = self._clock().strftime("%Y%m%d-%H%M%S")
        base = self.path.with_name(f"{self.path.name}.bad-{stamp}")
        target, n = base, 1
        while target.exists():
            n += 1
            target = base.with_name(f"{base.name}-{n}")
        return target

    def _keep_copy(self, raw: bytes) -> Path:
        """Write ``raw`` (the file as it was) to a new ``save.toml.bad-<timestamp>``."""
        target = self._bad_name()
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
        except OSError as exc:
            raise SaveError(_("The save file {path} has unreadable values, and could not be copied "
                              "aside as {target}: {why}.").format(path=self.path, target=target.name, why=_why(exc))) from exc
        return target

    def _keep_aside(self) -> Path:
        """Rename the bad file to ``save.toml.bad-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... if taken)."""
        target = self._bad_name()
        try:
            os.rename(self.path, target)
        except OSError as exc:
            raise SaveError(_("The save file {path} could not be read, and could not be kept aside "
                              "as {target}: {why}.").format(path=self.path, target=target.name, why=_why(exc))) from exc
        return target

    # -- writing -----------------------------------------------------------------------------

    def update(self, fn: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
        """Apply ``fn`` to the file as it is on disk now, write the result atomically, return it.

        ``fn(data)`` mutates ``data`` in place (its return value is ignored). Everything happens
        under an exclusive lock on ``save.toml.lock``, so concurrent instances serialise their
        changes and none is lost. If ``fn`` raises, nothing is written and the exception
        propagates. Raises :class:`SaveError` when the directory or file cannot be created or
        written (read-only or full disk, lock held too long); the old file is then untouched.
        """
        with self._locked():
            data = self._read_locked()
            fn(data)
            text = dump_text(data)
            self._remove_stale_temps()
            self._write_atomic(text.encode("utf-8"))
            return data

    def _write_atomic(self, payload: bytes) -> None:
        """Temp file in the same dir, write, flush, fsync, ``os.replace``, fsync the directory."""
        directory = self.path.parent
        tmp_name: str | None = None
        try:
            fd, tmp_name = tempfile.mkstemp(prefix=_TMP_PREFIX, suffix=_TMP_SUFFIX, dir=directory)
            with os.fdopen(fd, "wb") as tmp:
                tmp.write(payload)
                tmp.flush()
                os.fsync(tmp.fileno())
            os.replace(tmp_name, self.path)
            tmp_name = None
        except OSError as exc:
            raise SaveError(_("Could not write the save file {path}: {why}. "
                              "The previous save is unchanged.").format(path=self.path, why=_why(exc))) from exc
        finally:
            if tmp_name is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp_name)
        _fsync_dir(directory)

    def _remove_stale_temps(self) -> None:
        """Delete temp files left by a killed writer (safe: we hold the lock, no writer is live)."""
        with contextlib.suppress(OSError):
            for stray in self.path.parent.glob(f"{_TMP_PREFIX}*{_TMP_SUFFIX}"):
                with contextlib.suppress(OSError):
                    stray.unlink()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold an exclusive ``flock`` on the lock file (creating the directory if needed)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # O_NOFOLLOW: a symlink planted as save.toml.lock must not create a file elsewhere.
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(self.lock_path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise SaveError(f"The save file's lock {self.lock_path} is a symbolic link; "
                                f"remove it and try again.") from exc
            raise SaveError(f"Could not open the save file's lock {self.lock_path}: {_why(exc)}.") from exc
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(f"The save file's lock {self.lock_path} is not a regular file; "
                                f"remove it and try again.")
            self._acquire(fd)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _acquire(self, fd: int) -> None:
        deadline = time.monotonic() + self.lock_timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            except OSError as exc:
                raise SaveError(f"Could not lock the save file {self.lock_path}: {_why(exc)}.") from exc
            if time.monotonic() >= deadline:
                raise SaveError(f"The save file is locked by another spider for more than "
                                f"{self.lock_timeout:g} seconds ({self.lock_path}); try again.")
            time.sleep(delay)
            delay = min(delay * 2, 0.02)


def _fsync_dir(directory: Path) -> None:
    """fsync a directory so the rename is durable; skipped where the OS does not support it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF, errno.EACCES):
            raise SaveError(f"Could not flush the save directory {directory}: {_why(exc)}.") from exc
    finally:
        os.close(fd)


def _names(names: list[str], most: int = 5) -> str:
    """Dotted key names for a notice: at most ``most``, each cut to 40 characters."""
    shown = [n if len(n) <= 40 else n[:39] + "…" for n in names[:most]]
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(shown) + more


def _why(exc: OSError) -> str:
    """A short reason for an OS error: its strerror ("No space left on device"), lower-cased start."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return reason[:1].lower() + reason[1:]
