"""Every colour of the table in one place: a :class:`Palette` (themes are other palettes).

The cards and marks read it through :class:`~spider_tui.ui.render.Look`; ``app.tcss`` reads it
as CSS variables (``$spider-cloth``, ``$spider-bar``, …) that the app registers from :func:`css_variables`.
``NO_COLOR`` draws without any of them (``no_color.py``); four colours swaps the suit colours.

>>> css_variables(CLOTH)["spider-cloth"], CLOTH.suit(1, four_color=False), CLOTH.suit(2, four_color=True)
('#1f3a2e', '#c62828', '#1565c0')
"""

from __future__ import annotations


class Palette:
    """The named colours of one theme (hex strings); ``Palette(cloth=...)`` changes some.

    A plain class, not a dataclass: its 24 fields made one that cost ~1–2 ms to build at every
    start (SPEC §11)."""

    cloth: str = "#1f3a2e"  # the table
    bar: str = "#16291f"  # the top and bottom bars, the menu box
    ink: str = "#e6e6da"  # text on the cloth
    note: str = "#f0e6b0"  # the status line, titles, the suit chip that is on
    muted: str = "#8fa89a"  # a spent stock, keys beside labels
    border: str = "#6f9a7e"  # the start screen's box
    warn: str = "#f0b0b0"  # the start screen's notice
    white: str = "#ffffff"
    black: str = "#000000"
    face: str = "#efebe0"  # a face-up card
    back: str = "#34507a"  # a face-down card, the stock chip
    back_ink: str = "#b9c7de"  # the count on face-down cards
    held: str = "#ffd54f"  # the group held
    target: str = "#9ccc65"  # where it can go
    hint: str = "#4dd0e1"  # the hint
    slot: str = "#5f7a6a"  # an empty column
    spades: str = "#111111"
    hearts: str = "#c62828"
    diamonds: str = "#1565c0"  # four colours only; else like hearts
    clubs: str = "#2e7d32"  # four colours only; else like spades
    gain: str = "#1b8a3a"  # points earned (SPEC §15), on a card
    loss: str = "#c62828"  # points lost
    gain_bar: str = "#7ee08f"  # the same on the bars
    loss_bar: str = "#ff8a80"

    def __init__(self, **colours: str) -> None:
        for name, value in colours.items():
            if name not in COLOUR_NAMES:
                raise TypeError(f"Palette has no colour {name!r}")
            setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Palette) and all(getattr(self, n) == getattr(other, n) for n in COLOUR_NAMES)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in COLOUR_NAMES))

    def suit(self, suit: int, four_color: bool) -> str:
        """The colour of suit 0-3 (spades, hearts, diamonds, clubs)."""
        if four_color:
            return (self.spades, self.hearts, self.diamonds, self.clubs)[suit]
        return (self.spades, self.hearts, self.hearts, self.spades)[suit]


COLOUR_NAMES = tuple(name for name, value in vars(Palette).items() if not name.startswith("_") and isinstance(value, str))
CLOTH = Palette()  # the green baize, the only theme so far


def css_variables(palette: Palette) -> dict[str, str]:
    """The palette as Textual CSS variables: ``back_ink`` becomes ``$spider-back-ink`` (the
    prefix keeps them apart from Textual's own ``$border``, ``$warning``, …)."""
    return {"spider-" + name.replace("_", "-"): getattr(palette, name) for name in COLOUR_NAMES}
