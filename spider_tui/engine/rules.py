"""Rules: a frozen class of combinable rule options, and named presets (SPEC §10).

Classic Spider (SPEC §1) is ``Rules()``.  Options combine freely, as at the Spider Palast;
a rules *name* is the canonical text form that ``rules:`` in the position notation and
``--rules NAME`` on the command line use:

- ``classic`` when every option is off;
- otherwise the game's token (``spiderette`` or ``simple-simon``; none for Spider) followed by
  the options that are on, joined by ``+`` in this fixed order::

      relaxed  open  undo-off  scorpion  joker  scoring  timed|fast  practice

  (``fast`` is a timed round with the shorter clock, so it is written instead of ``timed``).

>>> rules_named("open+relaxed+undo_off").name
'relaxed+open+undo-off'
>>> rules_named("spiderette").columns, rules_named("spiderette").runs_to_win
(7, 4)
>>> Rules(scorpion=True, fast=True).name
'scorpion+fast'
"""

from __future__ import annotations

from typing import NamedTuple

from spider_tui.engine.frozen import Frozen

#: The games: classic two-deck Spider and its one-deck relatives.
SPIDER, SPIDERETTE, SIMPLE_SIMON = "spider", "spiderette", "simple-simon"
VARIANTS = (SPIDER, SPIDERETTE, SIMPLE_SIMON)

# Per game: columns, decks, runs to win.
_LAYOUT = {SPIDER: (10, 2, 8), SPIDERETTE: (7, 1, 4), SIMPLE_SIMON: (10, 1, 4)}

# Countdown seconds per game (two-deck / one-deck): a timed round, and a Fast one.
TIMED_SECONDS = {2: 20 * 60, 1: 10 * 60}
FAST_SECONDS = {2: 10 * 60, 1: 5 * 60}

#: Jokers per round under the Joker rule.
JOKERS_PER_ROUND = 3


class RuleOption(NamedTuple):
    """One rule option (SPEC §10), everything the program says or decides about it."""

    field: str  #: the ``Rules`` field
    word: str  #: its word in rules names, ``--rules`` and the position notation
    label: str  #: its line in the Special rules menu (``{joker_key}``: the Joker key)
    help: str  #: what it does, in a few words (``spider --help``)
    palast: str | None  #: its line in the Palast's "Open a table" form; None: a table can't have it
    solver: bool  #: a deal the solver proved winnable under classic rules stays winnable under it


def _minutes(seconds: dict[int, int]) -> str:
    return f"{seconds[2] // 60} min, one deck {seconds[1] // 60}"


#: Every rule option, in the canonical order of rules names. A new option is one line here
#: (and its field in ``Rules`` and its rule in the engine); the menu, the Palast's form,
#: ``--help``, ``Winnable deals only`` and the name parser are made from this table, and the
#: help dialog and docs/rules.md are tested against it.
RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("relaxed", "relaxed", "Relaxed: the stock deals onto empty columns", "deal onto empty columns",
               "Relaxed", True),
    RuleOption("open", "open", "Open: every card dealt face up", "all face up", "Open (all cards face up)", True),
    RuleOption("undo_off", "undo-off", "Undo off", "no undo", "Undo off", True),
    RuleOption("scorpion", "scorpion", "Scorpion: build in suit, any face-up group moves",
               "build in suit, any face-up group moves", "Scorpion", False),
    RuleOption("face_up", "face-up", "Face up: every card face up (classic Scorpion)",
               "every card face up, with Scorpion too", None, True),
    RuleOption("joker", "joker", "Joker: three per round (key {joker_key})", "three wild picks a round", "Joker", True),
    RuleOption("scoring", "scoring", "Scoring: the Palast points", "the Palast points", None, True),
    RuleOption("timed", "timed", "Timed: a countdown", f"a clock: {_minutes(TIMED_SECONDS)}", None, True),
    RuleOption("fast", "fast", "Fast: a shorter countdown", f"a shorter clock: {_minutes(FAST_SECONDS)}",
               f"Fast ({FAST_SECONDS[2] // 60} min rounds)", True),
    RuleOption("practice", "practice", "Practice: not recorded in stats", "not recorded",
               "Training (may start alone, not in the league)", True),
)

# Option tokens in canonical order: (token, field name).
_OPTION_TOKENS = tuple((o.word, o.field) for o in RULE_OPTIONS)


#: ``Rules.name`` of each rules asked (a few hundred combinations at most)
_NAMES: "dict[Rules, str]" = {}


class Rules(Frozen):
    """Rule options.  Every option off = classic Spider.

    - ``variant``: ``"spider"`` (104 cards, 10 columns), ``"spiderette"`` (52 cards,
      7 columns like Klondike) or ``"simple-simon"`` (52 cards, 10 columns, all face up).
    - ``relaxed``: the stock deals even when a column is empty.
    - ``open``: every card is dealt face up (with ``scorpion``: only one column, the one with
      the most face-down cards, lowest-numbered on a tie).
    - ``undo_off``: no undo.
    - ``scorpion``: build only on the same suit; any face-up group may move; only a King or a
      group led by a King enters an empty column; the stock always deals.
    - ``face_up``: every card is dealt face up, with ``scorpion`` too: the classic Scorpion of
      the rule books (``classic-scorpion``), beside the Palast's (``scorpion``).
    - ``joker``: three jokers per round (``Game.play_joker``).
    - ``scoring``: the Palast score (``Game.score``).
    - ``timed`` / ``fast``: a countdown (``countdown`` seconds); the UI runs the clock.
    - ``practice``: the round is not recorded in the stats.

    Frozen (``engine/frozen.py``: as a frozen dataclass with slots it took ~3 ms to make at
    every start, SPEC §11).
    """

    __slots__ = ("variant", "relaxed", "open", "undo_off", "scorpion", "face_up", "joker", "scoring",
                 "timed", "fast", "practice")
    variant: str
    relaxed: bool
    open: bool
    undo_off: bool
    scorpion: bool
    face_up: bool
    joker: bool
    scoring: bool
    timed: bool
    fast: bool
    practice: bool

    def __init__(self, variant: str = SPIDER, relaxed: bool = False, open: bool = False, undo_off: bool = False,
                 scorpion: bool = False, face_up: bool = False, joker: bool = False, scoring: bool = False,
                 timed: bool = False, fast: bool = False, practice: bool = False) -> None:
        if variant not in _LAYOUT:
            raise ValueError(f"unknown game {variant!r} (known: {', '.join(VARIANTS)})")
        values = (relaxed, open, undo_off, scorpion, face_up, joker, scoring, timed, fast, practice)
        for name, value in zip(self.__slots__[1:], values):
            if not isinstance(value, bool):
                raise ValueError(f"rule option {name} must be True or False")
        if fast:
            timed = True  # Fast is a timed round with a shorter clock
        put = object.__setattr__
        for name, v in zip(self.__slots__, (variant, relaxed, open, undo_off, scorpion, face_up, joker,
                                              scoring, timed, fast, practice)):
            put(self, name, v)

    # ------------------------------------------------------------------ text
    @property
    def name(self) -> str:
        """Canonical spelling, e.g. ``classic``, ``scorpion``, ``spiderette+relaxed+undo-off``."""
        known = _NAMES.get(self)  # asked for every position written (the Palast: every answer)
        if known is None:
            known = _NAMES[self] = self._name()
        return known

    def _name(self) -> str:
        parts = [] if self.variant == SPIDER else [self.variant]
        for token, attr in _OPTION_TOKENS:
            if getattr(self, attr) and not (token == "timed" and self.fast):
                parts.append(token)
        return "+".join(parts) or "classic"

    def __str__(self) -> str:
        return self.name

    def with_options(self, **options: object) -> "Rules":
        """A copy with some options changed: ``CLASSIC.with_options(joker=True)``."""
        return self.replace(**options)  # checked by Rules()

    # ------------------------------------------------------------------ facts
    @property
    def undo_allowed(self) -> bool:
        return not self.undo_off

    @property
    def columns(self) -> int:
        """Columns on the table (10, or 7 in Spiderette)."""
        return _LAYOUT[self.variant][0]

    @property
    def decks(self) -> int:
        """1 for the one-deck games (52 cards), 2 for Spider (104)."""
        return _LAYOUT[self.variant][1]

    @property
    def runs_to_win(self) -> int:
        return _LAYOUT[self.variant][2]

    @property
    def card_total(self) -> int:
        return 52 * self.decks

    def copies(self, suits: int) -> int:
        """Copies of each card in the deck at ``suits`` (1, 2 or 4)."""
        return self.decks * 4 // suits

    @property
    def has_stock(self) -> bool:
        return self.variant != SIMPLE_SIMON

    @property
    def deals_onto_empty(self) -> bool:
        """Whether the stock deals while a column is empty (Relaxed, Scorpion)."""
        return self.relaxed or self.scorpion

    @property
    def countdown(self) -> int | None:
        """Seconds on the round's clock: timed 20 min (one-deck games 10), fast 10 min (5); else None."""
        if self.fast:
            return FAST_SECONDS[self.decks]
        if self.timed:
            return TIMED_SECONDS[self.decks]
        return None

    @property
    def jokers(self) -> int:
        """Jokers a round starts with."""
        return JOKERS_PER_ROUND if self.joker else 0


CLASSIC = Rules()

#: Every single name: ``classic``, each game and each option.  Combine them with ``+``.
PRESETS: dict[str, Rules] = {"classic": CLASSIC}
PRESETS[SPIDERETTE] = Rules(variant=SPIDERETTE)
PRESETS[SIMPLE_SIMON] = Rules(variant=SIMPLE_SIMON)
for _token, _attr in _OPTION_TOKENS:
    PRESETS[_token] = Rules(**{_attr: True})  # type: ignore[arg-type]  # every option is a bool
#: The classic Scorpion of the rule books (all cards face up), beside the Palast's ``scorpion``
#: (written ``scorpion+face-up``).
PRESETS["classic-scorpion"] = Rules(scorpion=True, face_up=True)

# Other spellings accepted on input (never written).
_ALIASES = {
    "spider": "classic",
    "undooff": "undo-off",
    "no-undo": "undo-off",
    "simplesimon": "simple-simon",
    "simon": "simple-simon",
    "jokers": "joker",
    "score": "scoring",
    "timer": "timed",
}


def _normalise(token: str) -> str:
    t = "-".join(token.strip().lower().replace("_", " ").replace("-", " ").split())
    return _ALIASES.get(t, t)


def rules_named(name: str | Rules) -> Rules:
    """The Rules called ``name``: a preset (``scorpion``) or a ``+`` combination
    (``relaxed+open+undo-off``), in any order and case; ``KeyError`` names the known words.

    >>> rules_named("Scorpion + Joker") == Rules(scorpion=True, joker=True)
    True
    """
    if isinstance(name, Rules):
        return name
    text = str(name).strip()
    variant = SPIDER
    options: dict[str, bool] = {}
    for raw in text.split("+"):
        token = _normalise(raw)
        preset = PRESETS.get(token)
        if preset is None:
            known = ", ".join(sorted(PRESETS))
            shown = repr(raw.strip()) if "+" in text else repr(text)
            where = f" in {text!r}" if "+" in text else ""
            raise KeyError(f"unknown rules {shown}{where} (known: {known}; combine them with '+', e.g. relaxed+open)")
        if preset.variant != SPIDER:
            if variant != SPIDER and variant != preset.variant:
                raise KeyError(f"rules {text!r} name two games ({variant} and {preset.variant}); pick one")
            variant = preset.variant
        for _, attr in _OPTION_TOKENS:
            if getattr(preset, attr):
                options[attr] = True
    return Rules(variant=variant, **options)


__all__ = [
    "CLASSIC", "PRESETS", "RULE_OPTIONS", "RuleOption", "Rules", "rules_named", "VARIANTS",
    "SPIDER", "SPIDERETTE", "SIMPLE_SIMON", "JOKERS_PER_ROUND",
]
