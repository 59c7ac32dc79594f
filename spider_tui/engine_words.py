"""The engine's sentences in the language spoken (SPEC §17).

The engine stays free of the translation layer: its refusals (``IllegalMove.reason``,
``Game.deal_refusal()``, ``Game.move_refusal()``) are English sentences.  :func:`said` reads one
back and says it in the current language: a fixed sentence through the catalog, a sentence with a
number or a card through a pattern here.  A sentence this module doesn't know stays as it is.

>>> said("Column 3 is empty.")
'Column 3 is empty.'
"""

from __future__ import annotations

import gettext
import re
from typing import Callable

from spider_tui.i18n import NN_, N_, _, ngettext

#: The engine's fixed sentences (for the catalogs; shown through ``_()``).
FIXED = (
    N_("The round is won."), N_("The round is over."), N_("The stock is empty."), N_("Simple Simon has no stock."),
    N_("Fill every empty column before dealing."), N_("A group can't move onto its own column."),
    N_("A move takes at least one card."), N_("Only a same-suit run moves together."),
    N_("A King goes only into an empty column."), N_("This round is played without jokers."),
    N_("No jokers left."), N_("Nothing goes on an Ace."),
    N_("A view can't play a joker: only the full game knows its card (ask the server)."),
    N_("Only a King, or a group led by a King, goes into an empty column."),
    N_("Columns are numbered from 1."),
)

#: Rank names as the engine writes them, for the sentences that name a card: (the rank alone,
#: with "a"/"an" as the subject, with "a"/"an" as the object).
RANKS = {
    "Ace": (N_("Ace"), N_("an Ace (subject)"), N_("an Ace (object)")),
    "Jack": (N_("Jack"), N_("a Jack (subject)"), N_("a Jack (object)")),
    "Queen": (N_("Queen"), N_("a Queen (subject)"), N_("a Queen (object)")),
    "King": (N_("King"), N_("a King (subject)"), N_("a King (object)")),
}
SUITS = {"spades": N_("spades"), "hearts": N_("hearts"), "diamonds": N_("diamonds"), "clubs": N_("clubs")}


def _rank(word: str, case: int, g: Callable[[str], str]) -> str:
    """A rank named by the engine (``7``, ``Jack``; with its article: ``a 7``, ``an Ace``)."""
    bare = word.rsplit(" ", 1)[-1]  # without its article
    if bare in RANKS:
        text = g(RANKS[bare][case])
        return text.replace(" (subject)", "").replace(" (object)", "")  # English: the msgid itself
    if case == 0:
        return bare
    return (g(N_("an {rank}")) if bare == "8" else g(N_("a {rank}"))).format(rank=bare)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


Say = Callable[[re.Match[str], Callable[[str], str], Callable[[str, str, int], str]], str]

_PATTERNS: list[tuple[re.Pattern[str], Say]] = [
    (re.compile(r"Columns are numbered 1 to (\d+)\."),
     lambda m, g, ng: g(N_("Columns are numbered 1 to {n}.")).format(n=m[1])),
    (re.compile(r"Column (\d+) is empty\."), lambda m, g, ng: g(N_("Column {n} is empty.")).format(n=m[1])),
    (re.compile(r"Column (\d+) has only (\d+) face-up cards?\."),
     lambda m, g, ng: ng(*NN_("Column {n} has only {k} face-up card.", "Column {n} has only {k} face-up cards."),
                         int(m[2])).format(n=m[1], k=m[2])),
    (re.compile(r"Column (\d+)'s card isn't known yet\."),
     lambda m, g, ng: g(N_("Column {n}'s card isn't known yet.")).format(n=m[1])),
    (re.compile(r"(An? \w+) goes only on (an? \w+) of its own suit\."),
     lambda m, g, ng: g(N_("{card} goes only on {onto} of its own suit.")).format(
         card=_cap(_rank(m[1], 1, g)), onto=_rank(m[2], 2, g))),
    (re.compile(r"(An? \w+) goes on (an? \w+)\."),
     lambda m, g, ng: g(N_("{card} goes on {onto}.")).format(card=_cap(_rank(m[1], 1, g)), onto=_rank(m[2], 2, g))),
    (re.compile(r"No (\w+) of (\w+) is left in the stock or on the table for the joker\."),
     lambda m, g, ng: g(N_("No {rank} of {suit} is left in the stock or on the table for the joker.")).format(
         rank=_rank(m[1], 0, g), suit=g(SUITS.get(m[2], m[2])))),
    (re.compile(r"No (\w+) is left in the stock or on the table for the joker\."),
     lambda m, g, ng: g(N_("No {rank} is left in the stock or on the table for the joker.")).format(
         rank=_rank(m[1], 0, g))),
    (re.compile(r"Can't read (.*): write a joker like joker>4\.", re.S),
     lambda m, g, ng: g(N_("Can't read {text}: write a joker like joker>4.")).format(text=m[1])),
    (re.compile(r"Can't read (.*): write a move like 3>7, 3>7:2, deal or joker>4\.", re.S),
     lambda m, g, ng: g(N_("Can't read {text}: write a move like 3>7, 3>7:2, deal or joker>4.")).format(text=m[1])),
]


def said(sentence: str, translation: gettext.NullTranslations | None = None) -> str:
    """The engine's ``sentence`` in the language spoken (or ``translation``'s: the Palast server
    speaks each client's own); unchanged when it isn't known here."""
    g = _ if translation is None else translation.gettext
    ng = ngettext if translation is None else translation.ngettext
    if sentence in FIXED:
        return g(sentence)
    for pattern, say in _PATTERNS:
        m = pattern.fullmatch(sentence)
        if m:
            return say(m, g, ng)
    return sentence


def known(sentence: str) -> bool:
    """Is ``sentence`` one of the engine's that :func:`said` can translate?"""
    return sentence in FIXED or any(p.fullmatch(sentence) for p, _say in _PATTERNS)
