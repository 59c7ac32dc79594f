"""The engine's refusals in the language spoken (SPEC §17).

The engine stays free of the translation layer: its refusals (``IllegalMove.reason``,
``Game.deal_refusal()``, ``Game.move_refusal()``, ``Game.joker_refusal()``) are
``engine.Refusal``s, English sentences that carry a code (``engine.Why``) and the sentence's
parameters.  :func:`said` says one in the current language by its code and parameters through the
catalog (the templates here), never by reading the English words: rewording the engine's
English changes no other language.  A plain string (a caller's own sentence, already said in
the language spoken) stays as it is.

>>> from spider_tui.engine import Refusal, Why
>>> said(Refusal(Why.EMPTY, column=3))
'Column 3 is empty.'
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping

from spider_tui.engine.cards import SUIT_NAMES, rank_name
from spider_tui.engine.moves import Refusal, Why
from spider_tui.i18n import NN_, N_, _, ngettext

#: The sentence of every code, for the catalogs (``{n}``: a column or a number of columns,
#: ``{k}``: a number of cards, ``{card}``/``{onto}``: ranks with their article, ``{rank}``,
#: ``{suit}``, ``{text}``: what couldn't be read, quoted).  ``FEW_FACE_UP`` is said with its plural,
#: :data:`PLURAL`; ``NO_CARD`` with a suit says :data:`NO_CARD_OF_SUIT`.
PLURAL = NN_("Column {n} has only {k} face-up card.", "Column {n} has only {k} face-up cards.")
TEMPLATES: dict[Why, str] = {
    Why.WON: N_("The round is won."),
    Why.OVER: N_("The round is over."),
    Why.STOCK_EMPTY: N_("The stock is empty."),
    Why.NO_STOCK: N_("Simple Simon has no stock."),
    Why.FILL_COLUMNS: N_("Fill every empty column before dealing."),
    Why.NO_COLUMN: N_("Columns are numbered 1 to {n}."),
    Why.FROM_ONE: N_("Columns are numbered from 1."),
    Why.OWN_COLUMN: N_("A group can't move onto its own column."),
    Why.EMPTY: N_("Column {n} is empty."),
    Why.AT_LEAST_ONE: N_("A move takes at least one card."),
    Why.FEW_FACE_UP: PLURAL[0],  # said with ngettext
    Why.UNSEEN: N_("Column {n}'s card isn't known yet."),
    Why.NOT_A_RUN: N_("Only a same-suit run moves together."),
    Why.KING_TO_EMPTY: N_("A King goes only into an empty column."),
    Why.NO_FIT: N_("{card} goes on {onto}."),
    Why.OWN_SUIT: N_("{card} goes only on {onto} of its own suit."),
    Why.KING_LED: N_("Only a King, or a group led by a King, goes into an empty column."),
    Why.NO_JOKERS: N_("This round is played without jokers."),
    Why.NONE_LEFT: N_("No jokers left."),
    Why.ON_ACE: N_("Nothing goes on an Ace."),
    Why.VIEW: N_("A view can't play a joker: only the full game knows its card (ask the server)."),
    Why.NO_CARD: N_("No {rank} is left in the stock or on the table for the joker."),
    Why.UNREADABLE_JOKER: N_("Can't read {text}: write a joker like joker>4."),
    Why.UNREADABLE: N_("Can't read {text}: write a move like 3>7, 3>7:2, deal or joker>4."),
}
NO_CARD_OF_SUIT = N_("No {rank} of {suit} is left in the stock or on the table for the joker.")

#: Rank names as the engine writes them, for the sentences that name a card: (the rank alone,
#: with "a"/"an" as the subject, with "a"/"an" as the object).
RANKS = {
    "Ace": (N_("Ace"), N_("an Ace (subject)"), N_("an Ace (object)")),
    "Jack": (N_("Jack"), N_("a Jack (subject)"), N_("a Jack (object)")),
    "Queen": (N_("Queen"), N_("a Queen (subject)"), N_("a Queen (object)")),
    "King": (N_("King"), N_("a King (subject)"), N_("a King (object)")),
}
SUITS = {"spades": N_("spades"), "hearts": N_("hearts"), "diamonds": N_("diamonds"), "clubs": N_("clubs")}


def _rank(rank: int, case: int, g: Callable[[str], str]) -> str:
    """A rank (1 Ace … 13 King) in words: alone (``case`` 0: ``7``, ``Jack``), with its
    article as the subject (1: ``a 7``, ``an Ace``) or as the object (2)."""
    bare = rank_name(rank)
    if bare in RANKS:
        text = g(RANKS[bare][case])
        return text.replace(" (subject)", "").replace(" (object)", "")  # English: the msgid itself
    if case == 0:
        return bare
    return (g(N_("an {rank}")) if bare == "8" else g(N_("a {rank}"))).format(rank=bare)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _words(code: Why, p: Mapping[str, int | str], g: Callable[[str], str]) -> dict[str, object]:
    """The words of ``code``'s template in the language of ``g``, made from its parameters."""
    if code in (Why.NO_FIT, Why.OWN_SUIT):
        return {"card": _cap(_rank(int(p["rank"]), 1, g)), "onto": _rank(int(p["onto"]), 2, g)}
    if code is Why.NO_CARD:
        suit = p.get("suit")
        words: dict[str, object] = {"rank": _rank(int(p["rank"]), 0, g)}
        if isinstance(suit, int):
            words["suit"] = g(SUITS[SUIT_NAMES[suit]])
        return words
    if code in (Why.UNREADABLE, Why.UNREADABLE_JOKER):
        return {"text": repr(p["text"])}
    return {"n": p.get("column", p.get("columns")), "k": p.get("count")}


def said(sentence: str, translation: gettext.NullTranslations | None = None) -> str:
    """The engine's refusal ``sentence`` in the language spoken (or ``translation``'s: the Palast
    server speaks each client's own), by its code and parameters; a plain string (no
    ``Refusal``) stays as it is."""
    if not isinstance(sentence, Refusal):
        return sentence
    g = _ if translation is None else translation.gettext
    ng = ngettext if translation is None else translation.ngettext
    code, words = sentence.code, _words(sentence.code, sentence.params, g)
    if code is Why.FEW_FACE_UP:
        return ng(*PLURAL, int(sentence.params["count"])).format(**words)
    if code is Why.NO_CARD and "suit" in words:
        return g(NO_CARD_OF_SUIT).format(**words)
    return g(TEMPLATES[code]).format(**words)


def known(sentence: str) -> bool:
    """Is ``sentence`` one of the engine's refusals, which :func:`said` says by its code?"""
    return isinstance(sentence, Refusal)
