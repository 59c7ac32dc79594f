"""The record files (SPEC §16): ``records/`` in the data dir, one file a round, the newest 500.

Each file is written atomically (a temp file in the same directory, fsync, rename), never inside
the TOML save file.  A file is named by its UTC time, the time it was written (ns) and a short random tail
(``20261201T213000Z-1764624600123456789-3fa9c1.txt``), so names sort by age and two instances
never collide.  A
record that can't be written (a full disk, a read-only data dir) raises :class:`RecordsError`
with a sentence to show; the save file is never touched here.

    store = RecordStore(data_dir)
    path = store.add(record)            # write one, keep the newest 500
    store.entries()                     # newest first: (path, header summary)
    store.find("last") / store.find("3") / store.find("some/file.txt")
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from spider_tui import records
from spider_tui.i18n import _, ngettext
from spider_tui.records import Record, RecordError

DIR_NAME = "records"
KEEP = 500
SUFFIX = ".txt"
_TMP_PREFIX = ".rec-"


class RecordsError(Exception):
    """A record file that could not be written or found; ``str()`` is one line to show."""


@dataclass(frozen=True)
class Entry:
    """One record as the list shows it (from its header lines alone: cheap)."""

    path: Path
    date: str
    deal: str
    suits: str
    rules: str
    result: str
    moves: str
    seconds: float


def _why(exc: OSError) -> str:
    reason = exc.strerror or str(exc) or type(exc).__name__
    return reason[:1].lower() + reason[1:]


def read_file(path: str | os.PathLike[str]) -> bytes:
    """A record file's bytes: a regular file of at most :data:`records.MAX_BYTES`, opened without
    blocking (a FIFO would wait forever).  :class:`RecordsError` with the reason."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise RecordsError(_("can't read {v0}: {v1}").format(v0=path, v1=_why(e))) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RecordsError(_("can't read {v0}: not a regular file").format(v0=path))
        try:
            raw = f.read(records.MAX_BYTES + 1)
        except OSError as e:
            raise RecordsError(_("can't read {v0}: {v1}").format(v0=path, v1=_why(e))) from None
    if len(raw) > records.MAX_BYTES:
        raise RecordsError(_("{v0}: longer than {v1} KB: not a record").format(v0=path, v1=records.MAX_BYTES // 1024))
    return raw


class RecordStore:
    """The ``records/`` directory under ``data_dir`` (created on the first write)."""

    def __init__(self, data_dir: str | os.PathLike[str], keep: int = KEEP) -> None:
        self.dir = Path(data_dir) / DIR_NAME
        self.keep = keep

    # ------------------------------------------------------------------ writing
    def add(self, record: Record) -> Path:
        """Write ``record`` as a new file, then drop the oldest beyond :attr:`keep`."""
        text = records.write(record).encode("utf-8")
        stamp = record.date.replace("-", "").replace(":", "")
        # the round's time, then the writing time (two rounds in one second keep their order)
        name = f"{stamp}-{time.time_ns():019d}-{secrets.token_hex(3)}{SUFFIX}"
        path = self.dir / name
        tmp_name: str | None = None
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(prefix=_TMP_PREFIX, suffix=".tmp", dir=self.dir)
            with os.fdopen(fd, "wb") as tmp:
                tmp.write(text)
                tmp.flush()
                os.fsync(tmp.fileno())
            os.replace(tmp_name, path)
            tmp_name = None
        except OSError as e:
            raise RecordsError(_("The round's record could not be written to {v0}: {v1}.").format(v0=self.dir, v1=_why(e))) from e
        finally:
            if tmp_name is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp_name)
        with contextlib.suppress(OSError):
            dfd = os.open(self.dir, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        self.prune()
        return path

    def prune(self) -> None:
        """Keep the newest :attr:`keep` records."""
        for old in self.paths()[self.keep:]:
            with contextlib.suppress(OSError):
                old.unlink()

    def import_file(self, path: str | os.PathLike[str]) -> tuple[Path, Record]:
        """``spider import FILE``: read, check by replaying, add.  :class:`RecordsError` or
        :class:`RecordError` (nothing written) when it isn't a record that replays."""
        raw = read_file(path)
        record = records.read_checked(raw)[0]
        return self.add(record), record

    # ------------------------------------------------------------------ reading
    def paths(self) -> list[Path]:
        """Record files, newest first (names sort by time)."""
        return [self.dir / n for n in self.names()]

    def names(self) -> list[str]:
        """Record file names, newest first."""
        try:
            names = [n for n in os.listdir(self.dir) if n.endswith(SUFFIX) and not n.startswith(".")]
        except OSError:
            return []
        names.sort(reverse=True)
        return names

    def entries(self) -> list[Entry]:
        """The list (newest first) from each file's header lines; unreadable files are left out."""
        out = []
        base = os.fspath(self.dir)
        for name in self.names():
            entry = _entry(os.path.join(base, name))
            if entry is not None:
                out.append(entry)
        return out

    def find(self, which: str) -> Path:
        """``last`` (the newest), ``N`` (the Nth newest, 1 = last), or a file path."""
        if which == "last" or (which.isascii() and which.isdigit()):
            n = 1 if which == "last" else int(which)
            found = self.paths()
            if n < 1 or n > len(found):
                raise RecordsError(ngettext("no record {which}: there is {n} record in {dir}",
                                            "no record {which}: there are {n} records in {dir}",
                                            len(found)).format(which=which, n=len(found), dir=self.dir))
            return found[n - 1]
        return Path(which)

    def load(self, which: str) -> tuple[Record, str]:
        """The record ``which`` names (see :meth:`find`), checked by replaying; and its text."""
        path = self.find(which)
        raw = read_file(path)
        try:
            record = records.read_checked(raw)[0]
        except RecordError as e:
            raise RecordsError(_("{v0}: {v1}").format(v0=path, v1=e)) from None
        return record, raw.decode("utf-8")


def _entry(path: str) -> Entry | None:
    """An :class:`Entry` from the header lines (the file's first KB) only: cheap."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            head = os.read(fd, 1024)
        finally:
            os.close(fd)
    except OSError:
        return None
    values: dict[str, str] = {}
    for line in head.decode("utf-8", "replace").split("\n", 13)[:13]:
        key, sep, value = line.partition(": ")
        if not sep:
            break
        values[key] = value.rstrip("\r")
    if values.get("game") != "spider":
        return None
    try:
        seconds = float(values.get("seconds", "0"))
    except ValueError:
        seconds = 0.0
    return Entry(Path(path), values.get("date", ""), values.get("deal", ""), values.get("suits", ""),
                 values.get("rules", ""), values.get("result", ""), values.get("moves", ""), seconds)
