"""Rules: a frozen dataclass of rule options, and named presets.

Classic Spider (SPEC §1) is ``Rules()``; the named presets are what ``rules:`` in the
position notation and ``--rules NAME`` on the command line refer to.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options.  Every option off = classic Spider."""

    name: str = "classic"
    #: Relaxed: the stock deals even when a column is empty.
    relaxed: bool = False

    @property
    def undo_allowed(self) -> bool:
        return True


CLASSIC = Rules()

PRESETS: dict[str, Rules] = {
    "classic": CLASSIC,
    "relaxed": Rules(name="relaxed", relaxed=True),
}


def rules_named(name: str) -> Rules:
    """The preset called ``name``; ``KeyError`` with the known names otherwise."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise KeyError(f"unknown rules {name!r} (known: {known})") from None
