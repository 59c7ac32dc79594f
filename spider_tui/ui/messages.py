"""What a screen wants, posted up to the app: one message per intent.

A screen is given what it renders (its session, book and look) and posts one of these when the
player asks for something beyond it; the app decides (``SpiderApp`` handles each with ``@on``).
Questions a screen can answer itself (Give up?, Retry?) are asked before the message is posted:
a message is the intent, already confirmed.

Plain classes, not dataclasses: twelve ``@dataclass`` definitions cost ~6 ms of every start
(SPEC §11's start budget).  :class:`Intent` gives them what the dataclasses did: equality by
type and fields, and a repr.
"""

from __future__ import annotations

from datetime import date
from typing import ClassVar

from textual.message import Message


class Intent(Message):
    """A message whose fields (``FIELDS``) make its equality and repr, as a dataclass's."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    # as a dataclass with eq: mutable, so not hashable
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.FIELDS)})"


class NewRound(Intent):
    """A new deal (at ``suits``, else the command line's, else the setting's)."""

    FIELDS = ("suits",)

    def __init__(self, suits: int | None = None) -> None:
        self.suits = suits
        super().__init__()


class DailyRound(Intent):
    """The daily deal of ``day``."""

    FIELDS = ("day",)

    def __init__(self, day: date) -> None:
        self.day = day
        super().__init__()


class ContinueRound(Intent):
    """The unfinished round kept in the save file, back on the table."""


class RetryRound(Intent):
    """The same deal from the start (the round on the table has ended)."""


class PracticeDeal(Intent):
    """Deal ``deal`` (a number or a deal code) played alone as practice (not recorded), e.g. a
    Palast round's deal."""

    FIELDS = ("deal", "suits", "rules")

    def __init__(self, deal: int | str, suits: int, rules: str) -> None:
        self.deal = deal
        self.suits = suits
        self.rules = rules
        super().__init__()


class OpenLesson(Intent):
    """Lesson ``number`` on the table (SPEC §15); ``None``: the lesson after the one played."""

    FIELDS = ("number",)

    def __init__(self, number: int | None = None) -> None:
        self.number = number
        super().__init__()


class LeaveRound(Intent):
    """Back from the round to where it was started from; the round is kept for Continue."""


class ShowStats(Intent):
    """The statistics."""


class ShowHelp(Intent):
    """The rules, controls and tips; opened at the section ``section`` (a heading, e.g.
    ``"PALAST"``) when given."""

    FIELDS = ("section",)

    def __init__(self, section: str | None = None) -> None:
        self.section = section
        super().__init__()


class OpenPalast(Intent):
    """The Palast (SPEC §13): the server and name, then the lobby."""

    FIELDS = ("url",)

    def __init__(self, url: str | None = None) -> None:
        self.url = url
        super().__init__()


class QuitApp(Intent):
    """Keep the round for Continue, then leave."""


class SettingsChanged(Intent):
    """A setting was changed in the save book (``name`` as in the save file's settings)."""

    FIELDS = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__()


class OpenRecords(Intent):
    """The Records list (SPEC §16)."""


class OpenReplay(Intent):
    """A record in the replay screen, at ``step`` (``None``: the start)."""

    FIELDS = ("record", "step")

    def __init__(self, record: object, step: int | None = None) -> None:
        self.record = record  # spider_tui.records.Record (kept untyped: this module stays light)
        self.step = step
        super().__init__()


class PlayFromHere(Intent):
    """"Play from here": a practice round from a replay step's position."""

    FIELDS = ("position",)

    def __init__(self, position: str) -> None:
        self.position = position
        super().__init__()


class RaceRecord(Intent):
    """"Race this": the record's deal and rules, with the record as a ghost (called ``name``)."""

    FIELDS = ("record", "name")

    def __init__(self, record: object, name: str | None = None) -> None:
        self.record = record
        self.name = name
        super().__init__()


class ReviewRound(Intent):
    """``v`` after a round not won: its record's replay, with "Where did I lose it?" running."""

    FIELDS = ("record",)

    def __init__(self, record: object) -> None:
        self.record = record
        super().__init__()


__all__ = ["ContinueRound", "DailyRound", "LeaveRound", "NewRound", "OpenLesson", "OpenPalast", "OpenRecords",
           "OpenReplay", "PlayFromHere", "PracticeDeal", "QuitApp", "RaceRecord", "RetryRound", "ReviewRound",
           "SettingsChanged", "ShowHelp", "ShowStats"]
