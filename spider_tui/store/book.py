"""The save book: the save file as one app instance holds it (SPEC §7, §8). Plain Python.

It loads the file (a file that can't be read becomes a notice, and play goes on with defaults),
keeps the data in memory, applies each change there at once and hands it to a
:class:`~spider_tui.store.writer.SaveWriter` for the disk, reads the settings and sets them, and
says the daily dates and which are won. The UI is handed a book and shows what it says; the only
thing the app adds is the hop from the writer's thread to its own (:meth:`written` is called on
the UI thread with what the writer reported, and answers with the line to show, if any)::

    book = SaveBook(save, on_written=lambda data, error: ui_thread(book.written, data, error))
    book.set_setting("suits", 2)           # in memory now, on disk soon
    book.settings.suits                    # 2
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from spider_tui.engine import rules_named
from spider_tui.i18n import _
from spider_tui.safe_text import visible
from spider_tui.store.daily import daily_dates, is_daily_won
from spider_tui.store.savefile import SaveError, SaveFile, default_data
from spider_tui.store.stats import Settings, get_settings, set_setting
from spider_tui.store.writer import SaveWriter

Data = dict[str, Any]
Change = Callable[[Data], object]


def playable_rules(name: str) -> str:
    """``name`` if this version knows those rules, else classic (a newer spider wrote it).

    >>> playable_rules("scorpion"), playable_rules("rules-from-the-future")
    ('scorpion', 'classic')
    """
    try:
        rules_named(name)
    except (KeyError, ValueError):
        return "classic"
    return name


class SaveBook:
    """One instance's save data: loaded once, changed in memory at once, written in order off the
    caller's thread. ``on_written(data, error)`` is the writer thread's report (see module doc)."""

    def __init__(self, save: SaveFile,
                 on_written: Callable[[Data | None, SaveError | None], None] | None = None) -> None:
        self.save = save
        self.load_error: str | None = None  # said once by the UI: the file could not be read
        try:
            self.data: Data = save.load()
        except SaveError as e:  # e.g. the save file is a directory: play on, say so once
            self.data = default_data()
            self.load_error = f"{e} " + _("Results of this session can't be kept.")
        self.writer = SaveWriter(save, on_written=on_written)
        self._write_failing = False

    # ------------------------------------------------------------------ reading
    @property
    def settings(self) -> Settings:
        """The saved settings; a rules name this version doesn't know (a newer spider wrote it)
        reads as classic here and stays in the file."""
        settings = get_settings(self.data)
        if playable_rules(settings.rules) != settings.rules:
            settings = settings._replace(rules="classic")
        return settings

    def reload(self) -> tuple[Data, str | None]:
        """The file as it is now (other instances' results too), with the changes still waiting
        to be written applied to it; and the error line when it could not be read (the data in
        memory stays then)."""
        try:
            data = self.save.load()
        except SaveError as e:
            return self.data, str(e)
        for change in self.writer.pending():
            change(data)
        self.data = data
        return data, None

    def take_notice(self) -> str | None:
        """What the last load had to say (a repaired or moved-aside file), once."""
        return self.save.take_notice()

    def daily_won(self, d: date, suits: int) -> bool:
        return is_daily_won(self.data, d, suits)

    @staticmethod
    def daily_dates(today: date) -> list[date]:
        return daily_dates(today)

    # ------------------------------------------------------------------ writing
    def write(self, change: Change, after: Callable[[], None] | None = None) -> None:
        """Apply ``change`` in memory now and to the save file on disk off this thread (locked,
        atomic, in order). A change that can't be written is kept and tried again with the next."""
        change(self.data)
        self.writer.submit(change, after)

    def set_setting(self, name: str, value: object) -> None:
        """Remember one setting (suits, rules, ascii, four_color, winnable_only, ...)."""
        self.write(lambda d: set_setting(d, name, value))

    def written(self, data: Data | None, error: SaveError | None) -> tuple[str, str] | None:
        """The writer's report, on the UI thread: the line to show as (severity, text), or None.
        A failure is said once until a write succeeds again; then that is said."""
        if error is not None:
            if self._write_failing:
                return None
            self._write_failing = True
            return "error", visible(f"{error} " + _("Nothing is lost yet: your results are kept and saved "
                                                    "with the next change (or when you quit)."))
        if data is not None and self.writer.idle:
            self.data = data  # the file as written: it has the other instances' results too
        if self._write_failing:
            self._write_failing = False
            return "information", _("The save file could be written again; nothing was lost.")
        return None

    def flush(self, timeout: float) -> None:
        self.writer.flush(timeout=timeout)


__all__ = ["SaveBook", "playable_rules"]
