"""Writes to the save file off the UI thread, in order, and never loses a change (issue 9).

The app hands each change (a function of the save data, as for :meth:`SaveFile.update`) to a
:class:`SaveWriter`. One background thread applies the waiting changes, oldest first, in one locked
read-modify-write. So a slow disk, a 4 MB file or a lock held by another spider never freezes play.
A change that could not be written (a full disk, a lock held too long) stays waiting and is tried
again with the next change, and on close; ``on_written`` tells the app about every outcome.

    writer = SaveWriter(save, on_written=lambda data, error: ...)
    writer.submit(lambda d: record_result(d, result))
    writer.close(timeout=12)  # at exit: the last changes are written (or reported unwritten)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from spider_tui.store.savefile import SaveError, SaveFile

Change = Callable[[dict[str, Any]], object]


class SaveWriter:
    """One thread that writes :meth:`submit`-ted changes to ``save`` in order (see module doc).

    ``on_written(data, error)`` runs on the writer thread after each attempt: ``data`` is the file
    as written (``None`` on failure), ``error`` the :class:`SaveError` (``None`` on success).
    ``after`` callables given to :meth:`submit` run on the writer thread once their change is on disk.
    """

    def __init__(self, save: SaveFile,
                 on_written: Callable[[dict[str, Any] | None, SaveError | None], None] | None = None) -> None:
        self.save = save
        self.on_written = on_written
        self.last_error: SaveError | None = None
        self._waiting: list[tuple[Change, Callable[[], None] | None]] = []
        self._cond = threading.Condition()
        self._kick = False  # a new change arrived since the last failed attempt
        self._busy = False
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="spider-save-writer", daemon=True)
        self._thread.start()

    # -- the app's side ----------------------------------------------------------------------

    def submit(self, change: Change, after: Callable[[], None] | None = None) -> None:
        """Queue ``change`` to be written after every change queued before it."""
        with self._cond:
            if self._closing:
                raise RuntimeError("the save writer is closed")
            self._waiting.append((change, after))
            self._kick = True
            self._cond.notify_all()

    def pending(self) -> list[Change]:
        """The changes not yet on disk, oldest first (to apply to data read from the file now)."""
        with self._cond:
            return [change for change, _ in self._waiting]

    @property
    def idle(self) -> bool:
        """Nothing waiting and nothing being written."""
        with self._cond:
            return not self._waiting and not self._busy

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every change so far is written or has failed once more; True when all are on disk."""
        with self._cond:
            self._kick = bool(self._waiting)
            self._cond.notify_all()
            self._cond.wait_for(lambda: not self._busy and (not self._waiting or not self._kick), timeout)
            return not self._waiting and not self._busy

    def close(self, timeout: float | None = None) -> bool:
        """Write what is waiting (one more attempt), then stop the thread. True when all is on disk."""
        with self._cond:
            self._closing = True
            self._kick = bool(self._waiting)
            self._cond.notify_all()
        self._thread.join(timeout)
        with self._cond:
            return not self._waiting and not self._busy

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: (self._waiting and self._kick) or self._closing)
                if not (self._waiting and self._kick):
                    return  # closing, and nothing (more) to try
                batch = list(self._waiting)
                self._kick = False
                self._busy = True
            data, error = None, None
            try:
                data = self.save.update(lambda d: [change(d) for change, _ in batch])
            except SaveError as exc:
                error = exc
            except Exception as exc:  # a bug in a change must not kill the writer: report, drop it
                error = SaveError(f"Could not save a change ({type(exc).__name__}: {exc}).")
                with self._cond:
                    del self._waiting[:len(batch)]
            else:
                with self._cond:
                    del self._waiting[:len(batch)]
                for _, after in batch:
                    if after is not None:
                        after()
            with self._cond:
                self.last_error = error
                self._busy = False
                self._cond.notify_all()
            if self.on_written is not None:
                try:
                    self.on_written(data, error)
                except Exception:  # the app may be gone (closing); the file is what matters
                    pass
            with self._cond:
                if self._closing and (error is not None or not self._waiting):
                    if not self._waiting or not self._kick:
                        return
