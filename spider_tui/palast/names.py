"""Player names (SPEC §13 "Who you are", "Fair play"): NFKC-normalised, no default-ignorable or
filler code points, at most 16 terminal columns, and unique by their confusable skeleton
(Unicode TR39) as well as case-insensitively.

The skeleton follows TR39 §4: ``NFD``, each character replaced by its prototype from Unicode's
``confusables.txt``, ``NFD`` again.  The data is that of the ``confusable_homoglyphs`` library,
which stores each line of ``confusables.txt`` both ways (a source lists its prototype, a
prototype lists its sources); ``_prototypes`` reads the direction back.  The key a name must not
share with another is ``key(name)`` (skeletons and case folding), so ``Аnna`` (Cyrillic А),
``Αnna`` (Greek), ``ANNA`` and ``anna`` are all one name.

>>> key("Anna") == key("\\u0410nna") == key("\\u0391NNA") == key("anna")
True
>>> normal("\\uff21\\uff4e\\uff4e\\uff41"), problem("Anna\\u3164"), width("\\u738b" * 8)
('Anna', 'A name may not hold invisible or filler characters.', 16)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len

NAME_MAX = 16  # characters, and terminal columns
NAME_PUNCT = " -_."

#: Default_Ignorable_Code_Point (Unicode DerivedCoreProperties) and the filler characters that
#: show as nothing (Hangul fillers, the Braille blank): a name with one looks like another.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def ignorable(ch: str) -> bool:
    """Whether ``ch`` is default-ignorable or a filler (invisible in a seat list)."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE)


def normal(name: str) -> str:
    """The name as stored and compared: NFKC (``Ａｎｎａ`` and ``𝐀𝐧𝐧𝐚`` are ``Anna``)."""
    return unicodedata.normalize("NFKC", name)


def width(name: str) -> int:
    """Terminal columns the name takes (a CJK letter takes two)."""
    return cell_len(name)


def problem(name: str) -> str | None:
    """Why ``name`` (already ``normal``) can't be registered, or None (SPEC §13: 1–16 letters,
    digits, space, ``-_.``; no invisible or filler characters; at most 16 columns wide)."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"A name has 1 to {NAME_MAX} characters."
    if any(ignorable(ch) for ch in name):
        return "A name may not hold invisible or filler characters."
    for ch in name:
        if not (ch.isalnum() and unicodedata.category(ch)[0] in "LN") and ch not in NAME_PUNCT:
            return "A name may hold only letters, digits, space and - _ ."
    if name != name.strip() or "  " in name:
        return "A name can't start or end with a space or hold two in a row."
    if width(name) > NAME_MAX:
        return f"A name is at most {NAME_MAX} columns wide (a wide letter such as 王 takes two)."
    return None


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> its TR39 prototype (only characters that have another prototype)."""
    from confusable_homoglyphs.confusables import confusables_data

    def clean(text: str) -> str:
        return text.replace("\u200e", "")  # the library wraps right-to-left characters in LRMs

    links: dict[str, list[str]] = {}
    for k, entries in confusables_data.items():
        links.setdefault(clean(k), []).extend(clean(e["c"]) for e in entries)
    out: dict[str, str] = {}
    for c, others in links.items():
        if len(c) != 1 or len(others) != 1:
            continue  # a prototype with several sources (or a many-character prototype) maps to itself
        t = others[0]
        if len(t) == 1 and links.get(t) == [c]:
            if t < c:  # one source and one prototype: either may be the other; the smaller stands for both
                out[c] = t
        elif t != c:
            out[c] = t
    return out


def skeleton(text: str) -> str:
    """TR39 ``skeleton``: NFD, each character to its prototype, NFD."""
    proto = _prototypes()
    return unicodedata.normalize("NFD", "".join(proto.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def key(name: str) -> str:
    """What two names must not share: the skeleton of the NFKC name, case-folded, and its
    skeleton again, case-folded (``I`` looks like ``l`` but folds to ``i``: the skeleton comes
    first; ``А`` (Cyrillic) folds to ``а``, whose prototype is ``a``: so it comes again after)."""
    return skeleton(skeleton(normal(name)).casefold()).casefold()


__all__ = ["NAME_MAX", "normal", "problem", "width", "skeleton", "key", "ignorable"]
