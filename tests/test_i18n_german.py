"""German everywhere (SPEC §17): the lessons' own German, the rule options' words, the CLI's
``--help`` of every command with no English sentence left."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from spider_tui.i18n import _, set_language
from spider_tui.lessons import load_lessons
from spider_tui.lessons.runner import parse_lesson


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


def test_every_lesson_has_its_german():
    set_language("de")
    for lesson in load_lessons():
        assert lesson.german is not None, lesson.name
        title, task, success = lesson.german
        assert (lesson.shown_title, lesson.shown_task, lesson.shown_success) == (title, task, success)
        assert task != lesson.task and len(success) == len(lesson.success)  # a title may stay (Scorpion)
    set_language("en")
    assert load_lessons()[0].shown_title == "Moving cards and groups"


def test_a_half_translated_lesson_is_refused():
    text = "#: title: T\n#: title.de: Т\n#: task: t\n#: goal: won\n#: success: S\nsuits: 1\n1: As\n"
    with pytest.raises(ValueError, match="task.de"):
        parse_lesson("09-x", text)


def test_every_rule_option_text_is_in_the_catalog_and_german():
    from spider_tui.engine.rules import RULE_OPTIONS
    from spider_tui.rules_menu import RULE_TEXTS

    texts = {t for o in RULE_OPTIONS for t in (o.label, o.help, o.palast) if t}
    assert texts <= set(RULE_TEXTS), texts - set(RULE_TEXTS)
    set_language("de")
    same = [t for t in texts if _(t) == t and t not in ("Scorpion", "Joker")]
    assert same == []


# Words a German text never has (names, the rules' words and command words aside).
ENGLISH = re.compile(r"\b(the|and|with|from|show|print|this|that|which|default|for|of|is|are|not|"
                     r"deal number|suit count|rules of|usage|options|arguments|help message)\b")
ALLOWED = re.compile(r"--[a-z-]+|\{[^}]*\}|[A-Z_]{2,}|\bspider [a-z]+|ws://\S+|http\S+|`[^`]*`|"
                     r"\b(classic|relaxed|joker|spiderette|simple-simon|classic-scorpion|scorpion|open|undo-off|"
                     r"face-up|scoring|timed|fast|practice|Spider Solitaire|Simple Simon)\b")


def _help(*args: str) -> str:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    environ["LANG"] = "de_DE.UTF-8"
    r = subprocess.run([sys.executable, "-m", "spider_tui", *args, "--help"], capture_output=True, text=True,
                       env=environ, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _english_left(text: str) -> list[str]:
    left = []
    for line in text.splitlines():
        rest = ALLOWED.sub(" ", line)
        if ENGLISH.search(rest):
            left.append(line)
    return left


COMMANDS = ["show", "stats", "solve", "web", "server", "league", "bots"]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_of_every_command_is_german(command):
    text = _help(*([command] if command else []))
    assert text.startswith("Aufruf: spider")
    assert "Optionen:" in text
    assert _english_left(text) == []


def test_the_english_word_check_finds_english():
    assert _english_left("  --suits {1,2,4}  suit count (default 1)")
    assert not _english_left("  --suits {1,2,4}  Zahl der Farben (Vorgabe 1)")
