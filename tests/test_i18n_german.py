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


#: One refusal of every code: its parameters, its English sentence (the engine's words as they
#: have always been) and its German (from the catalog, by code).
EVERY_CODE = [
    ("WON", {}, "The round is won.", "Die Runde ist gewonnen."),
    ("OVER", {}, "The round is over.", "Die Runde ist vorbei."),
    ("STOCK_EMPTY", {}, "The stock is empty.", "Der Talon ist leer."),
    ("NO_STOCK", {}, "Simple Simon has no stock.", "Simple Simon hat keinen Talon."),
    ("FILL_COLUMNS", {}, "Fill every empty column before dealing.", "Füll jede leere Spalte, bevor du austeilst."),
    ("NO_COLUMN", {"columns": 10}, "Columns are numbered 1 to 10.", "Die Spalten sind von 1 bis 10 nummeriert."),
    ("FROM_ONE", {}, "Columns are numbered from 1.", "Die Spalten sind ab 1 nummeriert."),
    ("OWN_COLUMN", {}, "A group can't move onto its own column.", "Eine Folge kann nicht auf ihre eigene Spalte ziehen."),
    ("EMPTY", {"column": 3}, "Column 3 is empty.", "Spalte 3 ist leer."),
    ("AT_LEAST_ONE", {}, "A move takes at least one card.", "Ein Zug braucht mindestens eine Karte."),
    ("FEW_FACE_UP", {"column": 4, "count": 3}, "Column 4 has only 3 face-up cards.", "Spalte 4 hat nur 3 offene Karten."),
    ("UNSEEN", {"column": 2}, "Column 2's card isn't known yet.", "Die Karte von Spalte 2 ist noch nicht bekannt."),
    ("NOT_A_RUN", {}, "Only a same-suit run moves together.", "Nur eine Folge in einer Farbe zieht zusammen."),
    ("KING_TO_EMPTY", {}, "A King goes only into an empty column.", "Ein König darf nur in eine leere Spalte."),
    ("NO_FIT", {"rank": 10, "onto": 11}, "A 10 goes on a Jack.", "Eine 10 gehört auf einen Buben."),
    ("OWN_SUIT", {"rank": 12, "onto": 13}, "A Queen goes only on a King of its own suit.",
     "Eine Dame darf nur auf einen König ihrer eigenen Farbe."),
    ("KING_LED", {}, "Only a King, or a group led by a King, goes into an empty column.",
     "Nur ein König, oder eine Folge, die ein König anführt, darf in eine leere Spalte."),
    ("NO_JOKERS", {}, "This round is played without jokers.", "Diese Runde wird ohne Joker gespielt."),
    ("NONE_LEFT", {}, "No jokers left.", "Keine Joker mehr übrig."),
    ("ON_ACE", {}, "Nothing goes on an Ace.", "Auf ein Ass kommt nichts."),
    ("VIEW", {}, "A view can't play a joker: only the full game knows its card (ask the server).",
     "Eine Ansicht kann keinen Joker spielen: Nur das ganze Spiel kennt seine Karte (frag den Server)."),
    ("NO_CARD", {"rank": 1, "suit": 1}, "No Ace of hearts is left in the stock or on the table for the joker.",
     "Für den Joker liegt im Talon und auf dem Tisch keine passende Karte mehr (Ass Herz)."),
    ("UNREADABLE_JOKER", {"text": "joker>x"}, "Can't read 'joker>x': write a joker like joker>4.",
     "'joker>x' ist nicht lesbar: Schreib einen Joker wie joker>4."),
    ("UNREADABLE", {"text": "3>x"}, "Can't read '3>x': write a move like 3>7, 3>7:2, deal or joker>4.",
     "'3>x' ist nicht lesbar: Schreib einen Zug wie 3>7, 3>7:2, deal oder joker>4."),
]


def test_the_sample_names_every_code_of_the_engine():
    from spider_tui.engine import Why

    assert sorted(name for name, *_rest in EVERY_CODE) == sorted(w.name for w in Why)


@pytest.mark.parametrize("name, params, english, german", EVERY_CODE, ids=[c[0] for c in EVERY_CODE])
def test_each_code_reads_as_before_in_english_and_by_its_code_in_german(name, params, english, german):
    from spider_tui.engine import Refusal, Why
    from spider_tui.engine_words import said
    from spider_tui.palast.reasons import in_language

    refusal = Refusal(Why[name], **params)
    assert str(refusal) == refusal == english and refusal.code is Why[name] and refusal.params == params
    assert said(refusal) == english  # English: the engine's own words
    set_language("de")
    assert said(refusal) == german
    set_language("en")
    assert in_language(refusal, "de") == german  # the server says it in the client's language by code
    assert in_language(refusal, "en") == english


def test_rewording_the_english_changes_no_german(monkeypatch):
    """The translation reads the code and the parameters, never the English words: a reworded
    English template (or a sentence with a code but other words) says the same German, and a plain
    string that looks like an engine sentence is not read at all."""
    from spider_tui.engine import Refusal, Why
    from spider_tui.engine import moves
    from spider_tui.engine_words import said
    from spider_tui.palast.reasons import in_language

    monkeypatch.setitem(moves.ENGLISH, Why.EMPTY, "Nothing lies in column {column}.")
    monkeypatch.setitem(moves.ENGLISH, Why.NO_FIT, "{an_onto} takes no {A_card}.")
    empty, fit = Refusal(Why.EMPTY, column=5), Refusal(Why.NO_FIT, rank=7, onto=8)
    assert (empty, fit) == ("Nothing lies in column 5.", "an 8 takes no A 7.")
    assert in_language(empty, "de") == "Spalte 5 ist leer."
    set_language("de")
    assert said(empty) == "Spalte 5 ist leer." and said(fit) == "Eine 7 gehört auf eine 8."
    assert said("Column 5 is empty.") == "Column 5 is empty."  # no code: not the engine's, not read


def test_card_sentences_read_as_german():
    from spider_tui.engine import Refusal, Why
    from spider_tui.engine_words import said

    set_language("de")
    assert said(Refusal(Why.NO_FIT, rank=7, onto=8)) == "Eine 7 gehört auf eine 8."
    assert said(Refusal(Why.NO_FIT, rank=10, onto=11)) == "Eine 10 gehört auf einen Buben."
    assert said(Refusal(Why.OWN_SUIT, rank=12, onto=13)) == "Eine Dame darf nur auf einen König ihrer eigenen Farbe."
    assert said(Refusal(Why.FEW_FACE_UP, column=4, count=1)) == "Spalte 4 hat nur 1 offene Karte."
    assert said(Refusal(Why.FEW_FACE_UP, column=4, count=3)) == "Spalte 4 hat nur 3 offene Karten."
    assert said(Refusal(Why.NO_CARD, rank=13)) == "Für den Joker liegt im Talon und auf dem Tisch keine passende Karte mehr (König)."
    assert said("Something new.") == "Something new."


def test_a_refusal_keeps_its_code_through_a_copy_and_an_illegal_move():
    import copy
    import pickle

    from spider_tui.engine import Game, IllegalMove, Refusal, Why

    r = Refusal(Why.FEW_FACE_UP, column=2, count=1)
    for again in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert again == r and again.code is Why.FEW_FACE_UP and again.params == {"column": 2, "count": 1}
    with pytest.raises(IllegalMove) as e:
        Game.new(1, suits=1).play("1>1")
    assert e.value.code is Why.OWN_COLUMN and e.value.params == {} and str(e.value) == e.value.reason
    plain = IllegalMove("The lesson is done.")  # a caller's own sentence: no code
    assert plain.code is None and plain.params == {}


def _says_german(refusal) -> None:
    from spider_tui.engine import Refusal
    from spider_tui.engine_words import said

    assert isinstance(refusal, Refusal) and refusal.code is not None, refusal
    set_language("de")
    try:
        assert said(refusal) != refusal, refusal
    finally:
        set_language("en")
    assert said(refusal) == refusal  # English stays the engine's own words


@given(deal=st.integers(1, 10_000), suits=st.sampled_from([1, 2, 4]),
       rules=st.sampled_from(["classic", "scorpion", "joker", "relaxed", "simple-simon", "scorpion+joker", "spiderette"]),
       played=st.lists(st.integers(0, 200), max_size=12),
       source=st.integers(-1, 11), target=st.integers(-1, 11), count=st.integers(-1, 14), joker=st.booleans(),
       view=st.booleans(), give_up=st.integers(0, 3), junk=st.one_of(st.none(), st.text(max_size=8)))
@settings(deadline=None, max_examples=150)
def test_every_refusal_of_the_engine_has_a_code_and_reads_in_german(deal, suits, rules, played, source, target,
                                                                    count, joker, view, give_up, junk):
    """Whatever the engine refuses, in any position it reaches (a player's view with unseen cards
    too, as the Palast client plays), the refusal has a code and the player reads why in German
    (every code has its German template)."""
    from spider_tui.engine import Game, IllegalMove, Move

    game = Game.new(deal, suits=suits, rules=rules)
    for pick in played:  # a position some moves in
        moves = game.legal_moves() + game.legal_jokers()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    if view:
        game = Game.from_text(game.view())
    if give_up == 0:  # a round given up (a quarter of the time)
        game.give_up()
    text = f"joker>{target}" if joker else f"{source}>{target}:{count}"
    if junk is not None:  # any text a player (or a client) may send
        text = junk
    try:
        game.play(text)
    except IllegalMove as e:
        assert e.code is not None and e.code is e.reason.code
        _says_german(e.reason)
    for refusal in (game.deal_refusal(), game.joker_refusal(target), game.move_refusal(Move(source, target, count))):
        if refusal is not None:
            _says_german(refusal)


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
