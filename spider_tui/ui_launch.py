"""What the command line asks the app for (kept out of the ui package so parsing stays light)."""

from __future__ import annotations

from datetime import date
from typing import Any

_FIELDS = ("suits", "deal", "daily", "position", "rules", "ascii", "four_color", "server", "replay", "ghost", "lang")


class Launch:
    """The command line's wishes: the round to start, the look, the language, the Palast.
    (A plain class: as a dataclass it took ~2 ms to make at every start, SPEC §11.)"""

    def __init__(self, suits: int | None = None,
                 deal: int | str | None = None,  # a deal number or a deal code (SPEC §2)
                 daily: date | None = None,
                 position: str | None = None,
                 rules: str | None = None,  # None: the rules chosen on the start screen
                 ascii: bool = False,
                 four_color: bool = False,
                 server: str | None = None,  # spider --server URL: straight to the Palast
                 replay: Any = None,  # spider replay: a checked records.Record to open in the replay
                 ghost: Any = None,  # spider --ghost: a checked records.Record to race
                 lang: str | None = None,  # spider --lang de|en: over the remembered setting and the locale (SPEC §17)
                 ) -> None:
        self.suits = suits
        self.deal = deal
        self.daily = daily
        self.position = position
        self.rules = rules
        self.ascii = ascii
        self.four_color = four_color
        self.server = server
        self.replay = replay
        self.ghost = ghost
        self.lang = lang

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # it changes (as a dataclass's without frozen)

    def __repr__(self) -> str:
        return f"Launch({', '.join(f'{f}={getattr(self, f)!r}' for f in _FIELDS)})"
