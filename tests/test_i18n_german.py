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


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(deal=st.integers(1, 10_000), suits=st.sampled_from([1, 2, 4]), rules=st.sampled_from(["classic", "scorpion", "joker", "relaxed"]),
       source=st.integers(0, 11), target=st.integers(0, 11), count=st.integers(0, 14), joker=st.booleans())
@settings(deadline=None, max_examples=150)
def test_every_refusal_of_the_engine_reads_in_german(deal, suits, rules, source, target, count, joker):
    """Whatever the engine refuses, the player reads why in German (engine_words knows the sentence)."""
    from spider_tui.engine import Game, IllegalMove
    from spider_tui.engine_words import said

    game = Game.new(deal, suits=suits, rules=rules)
    text = f"joker>{target}" if joker else f"{source}>{target}:{count}"
    try:
        game.play(text)
    except IllegalMove as e:
        set_language("de")
        try:
            assert said(e.reason) != e.reason, e.reason
        finally:
            set_language("en")
        assert said(e.reason) == e.reason  # English stays the engine's own words
    refusal = game.deal_refusal()
    if refusal:
        set_language("de")
        try:
            assert said(refusal) != refusal, refusal
        finally:
            set_language("en")


def test_card_sentences_read_as_german():
    from spider_tui.engine_words import said

    set_language("de")
    assert said("A 7 goes on an 8.") == "Eine 7 gehört auf eine 8."
    assert said("A 10 goes on a Jack.") == "Eine 10 gehört auf einen Buben."
    assert said("A Queen goes only on a King of its own suit.") == "Eine Dame darf nur auf einen König ihrer eigenen Farbe."
    assert said("Column 4 has only 1 face-up card.") == "Spalte 4 hat nur 1 offene Karte."
    assert said("Column 4 has only 3 face-up cards.") == "Spalte 4 hat nur 3 offene Karten."
    assert said("Something new.") == "Something new."


def _reason_texts() -> list[str]:
    """Every reason the Palast server writes (Refusal, fail, refused, reason=), each f-string's
    parts filled with a sample value."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "spider_tui" / "palast"
    files = [*sorted((root / "server").glob("*.py")), *sorted((root / "server" / "db").glob("*.py")),
             root / "protocol.py", root / "names.py", root / "messages.py"]

    def text(node) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            return ["".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values)]
        if isinstance(node, ast.IfExp):
            return text(node.body) + text(node.orelse)
        return []

    found: list[str] = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, ast.Call):
                name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", "")
                args = [n.args[0]] if name in ("Refusal", "fail", "refused") and n.args else []
                args += [k.value for k in n.keywords if k.arg == "reason"]
                if name == "wire":  # a field's own refusals (messages.wire(missing=..., bad=...))
                    args += [k.value for k in n.keywords if k.arg in ("missing", "bad")]
                for a in args:
                    found += text(a)
            if path.name == "names.py" and isinstance(n, ast.Return) and n.value is not None:
                found += [t for t in text(n.value) if t.startswith("A name")]
            if path.parent.name == "db" and isinstance(n, ast.Return) and n.value is not None:
                found += [t for t in text(n.value) if t[:1].isupper() and t.endswith(".") and " " in t]
    return [t for t in found if t and t[0].isupper() or t.startswith("'")]


def test_every_reason_of_the_server_is_known_to_the_translation():
    from spider_tui.palast.reasons import known

    texts = _reason_texts()
    assert len(texts) > 40
    assert [t for t in texts if not known(t)] == []


def test_reasons_in_german():
    from spider_tui.palast.reasons import in_language, message_in_language

    assert in_language("There is no such table.", "de") == "Diesen Tisch gibt es nicht."
    assert in_language("You already sit at table 12; leave it or finish it first.", "de") == \
        "Du sitzt schon an Tisch 12; verlass ihn oder spiel ihn erst zu Ende."
    assert in_language("The table waited 2 min without starting and closed.", "de") == \
        "Der Tisch hat 2 min gewartet, ohne zu beginnen, und ist geschlossen."
    assert in_language("There is no such table.", "fr") == "There is no such table."
    assert in_language("Something the server never said.", "de") == "Something the server never said."
    assert message_in_language({"type": "welcome", "name": "There is no such table."}, "de")["name"] == \
        "There is no such table."  # only a refusal's, an error's or a closing's reason
    text = '{"type":"closed","table":3,"reason":"The table is finished."}'
    assert '"Der Tisch ist beendet."' in message_in_language(text, "de")
    assert message_in_language(text, None) == text
