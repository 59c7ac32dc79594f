"""What the command line asks the app for (kept out of the ui package so parsing stays light)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass
class Launch:
    """The command line's wishes: the round to start, the look, the language, the Palast."""

    suits: int | None = None
    deal: int | str | None = None  # a deal number or a deal code (SPEC §2)
    daily: date | None = None
    position: str | None = None
    rules: str | None = None  # None: the rules chosen on the start screen
    ascii: bool = False
    four_color: bool = False
    server: str | None = None  # spider --server URL: straight to the Palast
    replay: Any = None  # spider replay: a checked records.Record to open in the replay
    ghost: Any = None  # spider --ghost: a checked records.Record to race
    lang: str | None = None  # spider --lang de|en: over the remembered setting and the locale (SPEC §17)
