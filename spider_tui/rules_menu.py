"""The "Special rules" menu as plain logic: which options exist and how toggling them works.

The start screen shows these lines and calls ``toggle``; the result's ``name`` is saved in the
settings and used for the next new round (SPEC §10).
"""

from __future__ import annotations

from spider_tui.commands import JOKER_KEY
from spider_tui.engine import Rules, rules_named
from spider_tui.engine.rules import RULE_OPTIONS, VARIANTS

GAME_NAMES = {"spider": "Spider", "spiderette": "Spiderette (7 columns, one deck)",
              "simple-simon": "Simple Simon (all face up, no stock)"}

#: (field, label) in menu order: the rule options' table (``engine/rules.py``).
OPTIONS: list[tuple[str, str]] = [(o.field, o.label.format(joker_key=JOKER_KEY)) for o in RULE_OPTIONS]


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
    out = [("variant", f"Game: {GAME_NAMES[r.variant]}  (Enter: next)")]
    for key, label in OPTIONS:
        out.append((key, f"{checkbox(getattr(r, key), ascii)} {label}"))
    return out


def checkbox(on: bool, ascii: bool = False) -> str:
    """An option's box, the same in every list of options (the rules menu, the Palast's form)."""
    return ("[x]" if on else "[ ]") if ascii else ("☑" if on else "☐")
