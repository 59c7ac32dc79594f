"""The "Special rules" menu as plain logic: which options exist and how toggling them works.

The start screen shows these lines and calls ``toggle``; the result's ``name`` is saved in the
settings and used for the next new round (SPEC §10).
"""

from __future__ import annotations

from spider_tui.commands import JOKER_KEY
from spider_tui.engine import Rules, rules_named
from spider_tui.engine.rules import RULE_OPTIONS, VARIANTS
from spider_tui.i18n import N_, _

GAME_NAMES = {"spider": N_("Spider"), "spiderette": N_("Spiderette (7 columns, one deck)"),
              "simple-simon": N_("Simple Simon (all face up, no stock)")}

#: (field, label) in menu order: the rule options' table (``engine/rules.py``), in English.
OPTIONS: list[tuple[str, str]] = [(o.field, o.label.format(joker_key=JOKER_KEY)) for o in RULE_OPTIONS]

#: The rule options' words (``engine/rules.py`` stays free of the translation layer): each label,
#: help and Palast line as the table has it, for the catalogs; shown through ``_()``.
#: ``tests/test_i18n_german.py`` checks that every one of the table's texts is here.
RULE_TEXTS = (
    N_("Relaxed: the stock deals onto empty columns"), N_("deal onto empty columns"), N_("Relaxed"),
    N_("Open: every card dealt face up"), N_("all face up"), N_("Open (all cards face up)"),
    N_("Undo off"), N_("no undo"),
    N_("Scorpion: build in suit, any face-up group moves"), N_("build in suit, any face-up group moves"),
    N_("Scorpion"),
    N_("Face up: every card face up (classic Scorpion)"), N_("every card face up, with Scorpion too"),
    N_("Joker: three per round (key {joker_key})"), N_("three wild picks a round"), N_("Joker"),
    N_("Scoring: the Palast points"), N_("the Palast points"),
    N_("Timed: a countdown"), N_("a clock: 20 min, one deck 10"),
    N_("Fast: a shorter countdown"), N_("a shorter clock: 10 min, one deck 5"), N_("Fast (10 min rounds)"),
    N_("Practice: not recorded in stats"), N_("not recorded"), N_("Training (may start alone, not in the league)"),
)


def option_label(field: str) -> str:
    """The menu line of the rule option ``field`` in the language spoken."""
    for o in RULE_OPTIONS:
        if o.field == field:
            return _(o.label).format(joker_key=JOKER_KEY)
    raise KeyError(field)


def toggle(rules: Rules | str, key: str) -> Rules:
    """Flip one option (or step to the next game for ``key == "variant"``)."""
    r = rules_named(rules)
    if key == "variant":
        return r.with_options(variant=VARIANTS[(VARIANTS.index(r.variant) + 1) % len(VARIANTS)])
    if key == "timed" and r.timed:
        return r.with_options(timed=False, fast=False)  # no clock at all
    if key == "fast" and r.fast:
        return r.with_options(fast=False)  # stays timed, with the normal clock
    return r.with_options(**{key: not getattr(r, key)})


def lines(rules: Rules | str, ascii: bool = False) -> list[tuple[str, str]]:
    """(key, label) of every menu line for ``rules``, with a check mark for options on."""
    r = rules_named(rules)
    out = [("variant", _("Game: {name}  (Enter: next)").format(name=_(GAME_NAMES[r.variant])))]
    for key, _label in OPTIONS:
        out.append((key, f"{checkbox(getattr(r, key), ascii)} {option_label(key)}"))
    return out


def checkbox(on: bool, ascii: bool = False) -> str:
    """An option's box, the same in every list of options (the rules menu, the Palast's form)."""
    return ("[x]" if on else "[ ]") if ascii else ("☑" if on else "☐")
