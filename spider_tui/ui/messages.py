"""What a screen wants, posted up to the app: one dataclass message per intent.

A screen is given what it renders (its session, book and look) and posts one of these when the
player asks for something beyond it; the app decides (``SpiderApp`` handles each with ``@on``).
Questions a screen can answer itself (Give up?, Retry?) are asked before the message is posted:
a message is the intent, already confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from textual.message import Message


@dataclass
class NewRound(Message):
    """A new deal (at ``suits``, else the command line's, else the setting's)."""

    suits: int | None = None


@dataclass
class DailyRound(Message):
    """The daily deal of ``day``."""

    day: date


@dataclass
class ContinueRound(Message):
    """The unfinished round kept in the save file, back on the table."""


@dataclass
class RetryRound(Message):
    """The same deal from the start (the round on the table has ended)."""


@dataclass
class PracticeDeal(Message):
    """Deal ``deal`` (a number or a deal code) played alone as practice (not recorded), e.g. a
    Palast round's deal."""

    deal: int | str
    suits: int
    rules: str


@dataclass
class OpenLesson(Message):
    """Lesson ``number`` on the table (SPEC §15); ``None``: the lesson after the one played."""

    number: int | None = None


@dataclass
class LeaveRound(Message):
    """Back from the round to where it was started from; the round is kept for Continue."""


@dataclass
class ShowStats(Message):
    """The statistics."""


@dataclass
class ShowHelp(Message):
    """The rules, controls and tips; opened at the section ``section`` (a heading, e.g.
    ``"PALAST"``) when given."""

    section: str | None = None


@dataclass
class OpenPalast(Message):
    """The Palast (SPEC §13): the server and name, then the lobby."""

    url: str | None = None


@dataclass
class QuitApp(Message):
    """Keep the round for Continue, then leave."""


@dataclass
class SettingsChanged(Message):
    """A setting was changed in the save book (``name`` as in the save file's settings)."""

    name: str


__all__ = ["ContinueRound", "DailyRound", "LeaveRound", "NewRound", "OpenLesson", "OpenPalast", "PracticeDeal", "QuitApp",
           "RetryRound", "SettingsChanged", "ShowHelp", "ShowStats"]


@dataclass
class OpenRecords(Message):
    """The Records list (SPEC §16)."""


@dataclass
class OpenReplay(Message):
    """A record in the replay screen, at ``step`` (``None``: the start)."""

    record: object  # spider_tui.records.Record (kept untyped: this module stays light)
    step: int | None = None


@dataclass
class PlayFromHere(Message):
    """"Play from here": a practice round from a replay step's position."""

    position: str


@dataclass
class RaceRecord(Message):
    """"Race this": the record's deal and rules, with the record as a ghost (called ``name``)."""

    record: object
    name: str | None = None


@dataclass
class ReviewRound(Message):
    """``v`` after a round not won: its record's replay, with "Where did I lose it?" running."""

    record: object
