"""Is any English left on a German screen?  (SPEC §17: "a test walks every screen in German and
fails on any English sentence left".)

Two nets: every English text of the catalog whose German differs (its words, or for a text with
``{fields}`` each literal run of 8 or more characters) must not show; and a list of English words
that never stand in German text.  Names (Spider, Palast, Joker, Scorpion…), rules words (classic,
relaxed…), keys (Esc, Enter, F1) and cards are not English sentences and are let through.
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Words of English that German text never has (case-sensitive: German nouns are capitalised).
ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|from|this|that|which|your|you|are|not|of|for|to|is|it|or|at|by|on|off|when|what|"
    r"there|here|can't|won't|don't|moves|deal|deals|round|rounds|column|columns|card|cards|hint|hints|"
    r"undo|quit|help|stats|won|lost|table|tables|rules|suit|suits|runs|score|player|players|yes|back|"
    r"close|ready|game|press|click|key|keys|menu|give|level|lesson|lessons|empty|more|only|left|"
    r"Deal|Moves|Hint|Retry|New|Quit|Help|Stats|Menu|Runs|Score|Continue|Daily|Lessons|Winnable|"
    r"Language|Yes|Close|Table|League|Ready|Leave|Rounds|Seats|Suits|Rules|Player|Total|Place|Rating|"
    r"Tables|Wins|Experience|Lines|Column|Task|Done|Won|Played|Level|Practice|Special)\b")

#: What may stand in German text although it looks English: names, rules words, keys, the server.
ALLOWED = re.compile(
    r"--[a-z-]+|\{[^}]*\}|ws://\S+|`[^`]*`|\b(classic|relaxed|joker|spiderette|simple-simon|classic-scorpion|"
    r"scorpion|open|undo-off|face-up|scoring|timed|fast|practice|Spider Solitaire|Simple Simon|Spiderette|"
    r"Undo aus|Undo|deal oder|deal)\b")


@lru_cache(maxsize=1)
def _catalog() -> dict[str, str]:
    path = ROOT / "spider_tui" / "locale" / "de" / "LC_MESSAGES" / "spider.mo"
    with open(path, "rb") as f:
        t = gettext.GNUTranslations(f)
    return dict(t._catalog)  # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def _english_pieces() -> list[re.Pattern[str]]:
    """The English texts (or their long literal runs) whose German differs, as patterns."""
    pieces: set[str] = set()
    germans = set(_catalog().values())  # a word German itself uses (the footer's "Undo") is not English here
    for key, german in _catalog().items():
        if not isinstance(key, str) or not key or "\x04" in key:
            continue
        if german == key or len(key) < 4 or key in germans:
            continue
        if "{" in key or "%" in key:
            for run in re.split(r"\{[^}]*\}|%\(\w+\)[sdr]|%[sdr]", key):
                run = run.strip(" .,:;()·")
                if len(run) >= 8 and run not in german:
                    pieces.add(run)
        elif re.search(r"[a-z]", key) and key not in german:
            pieces.add(key)
    return [re.compile(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])") for p in sorted(pieces, key=len, reverse=True)]


def english_left(text: str) -> list[str]:
    """The lines of ``text`` that still hold English (empty: none)."""
    found = []
    for line in text.splitlines():
        rest = ALLOWED.sub(" ", line)
        if ENGLISH_WORDS.search(rest) or any(p.search(line) for p in _english_pieces()):
            found.append(line.strip())
    return found
