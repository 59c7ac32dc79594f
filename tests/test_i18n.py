"""German and English (SPEC §17): the catalogs, the choice of language, ``--lang``, ``--help``.

The catalogs: every text in ``_()``/``N_()``/``ngettext()`` is in ``po/spider.pot``, the German
catalog translates each one, and the ``.mo`` in the package is the ``.po`` compiled.
"""

from __future__ import annotations

import gettext
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui import i18n
from spider_tui.i18n import _, choose, ngettext, set_language

ROOT = Path(__file__).resolve().parent.parent


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("catalog", ROOT / "scripts" / "catalog.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalog"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


catalog = _catalog_tool()


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


def test_catalogs_are_up_to_date():
    """The .pot has every marked text of the code, po/de.po translates each, the .mo is the .po."""
    assert catalog.behind() == []


def test_extraction_finds_marked_texts(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text('from x import _, N_, ngettext\n'
                              'A = N_("Deal")\n'
                              'def f(n):\n'
                              '    return _("Undo " "all"), ngettext("{n} card", "{n} cards", n), _(name)\n')
    found = catalog.extract(pkg)
    assert set(found) == {"Deal", "Undo all", "{n} card"}
    assert found["{n} card"].plural == "{n} cards"


def _fields(text: str) -> list[str]:
    return sorted(re.findall(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]", text))


def test_german_keeps_every_placeholder():
    """A translation names the same {fields} and %-placeholders as its English (else .format fails)."""
    po = catalog.read_po(catalog.PO_DIR / "de.po")
    wrong = [(e.msgid, s) for e in po.values() if e.msgid for s in e.msgstr[:1]
             if _fields(s) != _fields(e.msgid)]
    wrong += [(e.plural, e.msgstr[1]) for e in po.values() if e.plural and _fields(e.msgstr[1]) != _fields(e.plural)]
    assert wrong == []


def test_mo_round_trips_through_gettext(tmp_path):
    entries = {"": catalog.Entry(""), "Deal": catalog.Entry("Deal", msgstr=["Austeilen"]),
               "{n} card": catalog.Entry("{n} card", "{n} cards", ["{n} Karte", "{n} Karten"]),
               "Fuzzy": catalog.Entry("Fuzzy", msgstr=["Unscharf"], fuzzy=True)}
    path = tmp_path / "x.mo"
    path.write_bytes(catalog.mo_bytes(catalog.catalog(entries)))
    with open(path, "rb") as f:
        t = gettext.GNUTranslations(f)
    assert t.gettext("Deal") == "Austeilen"
    assert t.ngettext("{n} card", "{n} cards", 1) == "{n} Karte"
    assert t.ngettext("{n} card", "{n} cards", 3) == "{n} Karten"
    assert t.gettext("Fuzzy") == "Fuzzy"  # a fuzzy translation is not used


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40))
@settings(deadline=None, max_examples=60)
def test_po_quoting_round_trips(text):
    assert catalog._unquote(catalog._quote(text).split("\n")[0]) == text or "\n" in text


def test_the_mo_is_in_the_package():
    """The catalog ships inside spider_tui (pip install . and -e . both carry it)."""
    mo = Path(i18n.__file__).with_name("locale") / "de" / "LC_MESSAGES" / "spider.mo"
    assert mo.is_file()
    ignored = subprocess.run(["git", "check-ignore", "-q", str(mo)], cwd=ROOT).returncode == 0
    assert not ignored


def test_german_and_back():
    set_language("de")
    assert (i18n.language(), _("Deal"), _("Undo"), _("Hint")) == ("de", "Austeilen", "Rückgängig", "Tipp")
    assert _("") == ""  # never the catalog's header
    assert _("a text no catalog has") == "a text no catalog has"
    set_language("en")
    assert (i18n.language(), _("Deal")) == ("en", "Deal")
    set_language("fr")  # no catalog: English
    assert (i18n.language(), _("Deal")) == ("en", "Deal")


@pytest.mark.parametrize("environ, lang", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT"}, "de"),
    ({"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "C"}, "de"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_locale_chooses(environ, lang):
    assert choose(None, None, environ) == lang


def test_lang_and_setting_over_the_locale():
    assert choose("en", None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert choose(None, "en", {"LANG": "de_DE.UTF-8"}) == "en"
    assert choose(None, "de", {"LANG": "C"}) == "de"
    assert choose("de", "en", {}) == "de"
    assert choose(None, "", {"LANG": "de_DE"}) == "de"  # no setting: the locale


def test_plural():
    set_language("de")
    assert ngettext("{n} card", "{n} cards", 1) in ("{n} card", "{n} Karte")  # unknown or translated


def _spider(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", "spider_tui", *args], capture_output=True, text=True,
                          env=environ, timeout=120)


def test_help_speaks_the_locale_and_lang():
    de = _spider("--help", LANG="de_DE.UTF-8").stdout
    assert "Aufruf: spider" in de and "Optionen:" in de and "diese Hilfe zeigen und beenden" in de
    en = _spider("--help", LANG="C").stdout
    assert "usage: spider" in en and "show this help message and exit" in en
    assert "Aufruf: spider" in _spider("--lang", "de", "--help", LANG="C").stdout
    assert "usage: spider" in _spider("--lang=en", "--help", LANG="de_DE.UTF-8").stdout


def test_lang_before_or_after_a_command():
    for args in (["--lang", "de", "show", "--help"], ["show", "--help", "--lang", "de"]):
        out = _spider(*args, LANG="C").stdout
        assert out.startswith("Aufruf: spider show"), out
    shown = _spider("--lang", "de", "show", "1", LANG="C")
    assert shown.returncode == 0 and shown.stdout.startswith("suits: 1")


def test_bad_lang_is_one_line_and_status_2():
    r = _spider("--lang", "fr", LANG="C")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["spider: argument --lang: invalid choice: 'fr' (choose from 'de', 'en')"]


def test_usage_error_in_german():
    r = _spider("show", "1", "--nope", LANG="de_DE.UTF-8")
    assert r.returncode == 2
    assert r.stderr.strip() == "spider show: unbekannte Argumente: --nope"


def test_the_language_setting_is_checked(tmp_path):
    from spider_tui.store import SaveFile
    from spider_tui.store.stats import get_settings, set_setting

    assert get_settings({}).language == ""
    assert get_settings(set_setting({}, "language", "de")).language == "de"
    with pytest.raises(ValueError):
        set_setting({}, "language", "fr")
    path = tmp_path / "save.toml"
    path.write_text('version = 1\n[settings]\nlanguage = 7\nsuits = 2\n')
    data = SaveFile(path).load()  # a bad value is dropped, the rest kept
    assert get_settings(data).language == "" and get_settings(data).suits == 2


def test_no_module_hides_the_translation_function():
    """A module that imports ``_`` never binds ``_`` itself (``won, _ = ...`` in a function made
    every ``_()`` after it in that function call a number)."""
    import ast

    bad = []
    for path in sorted((ROOT / "spider_tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(isinstance(n, ast.ImportFrom) and n.module == "spider_tui.i18n"
                      and any(a.name == "_" for a in n.names) for n in ast.walk(tree))
        if not imports:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store):
                bad.append(f"{path.relative_to(ROOT)}:{n.lineno}")
            if isinstance(n, ast.arg) and n.arg == "_":
                bad.append(f"{path.relative_to(ROOT)}:{n.lineno}")
    assert bad == []


def test_spider_web_hands_lang_to_every_tab(tmp_path):
    import shlex

    from spider_tui.web import tab_command
    from spider_tui.web_tab import tab_args

    words = shlex.split(tab_command(tmp_path, python="/py", lang="de"))
    assert words[-2:] == ["--lang", "de"]
    _path, launch = tab_args(words[4:])
    assert launch.lang == "de"
    assert "--lang" not in tab_command(tmp_path, python="/py")
