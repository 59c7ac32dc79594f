"""The rule options' table (engine/rules.py RULE_OPTIONS, SPEC §10): one line per option, and
every place that lists options is made from it or agrees with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spider_tui.engine.rules import RULE_OPTIONS, Rules, rules_named

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_every_option_of_rules_is_in_the_table_once_in_the_order_of_names():
    assert [o.field for o in RULE_OPTIONS] == [name for name in Rules.__slots__ if name != "variant"]
    everything = Rules(**{o.field: True for o in RULE_OPTIONS if o.field != "timed"})
    words = everything.name.split("+")
    assert words == [o.word for o in RULE_OPTIONS if o.word != "timed"]  # fast is written for timed+fast


@pytest.mark.parametrize("option", RULE_OPTIONS, ids=lambda o: o.word)
def test_each_word_names_its_option(option):
    assert getattr(rules_named(option.word), option.field) is True


def test_the_special_rules_menu_has_a_line_per_option():
    from spider_tui.rules_menu import lines

    keys = [key for key, _label in lines("classic")]
    assert keys == ["variant"] + [o.field for o in RULE_OPTIONS]


def test_the_palast_form_offers_the_options_the_table_says_and_the_protocol_agrees():
    from spider_tui.ui.palast.open_form import OpenForm
    from spider_tui.palast.protocol import TABLE_OPTIONS

    offered = {o.word for o in RULE_OPTIONS if o.palast is not None}
    form = OpenForm()
    assert {key for key, _text in form.lines()} - {"suits", "rounds", "seats", "private", "go"} == offered
    assert set(TABLE_OPTIONS) == offered
    for word in offered:
        form.choose(word)
    assert set(form.rules.split("+")) == offered and rules_named(form.rules)


def test_the_fast_lines_say_the_real_clock():
    fast = next(o for o in RULE_OPTIONS if o.word == "fast")
    minutes = Rules(fast=True).countdown // 60
    assert f"Fast ({minutes} min rounds)" == fast.palast
    assert f"{minutes} min" in fast.help and f"{Rules(timed=True).countdown // 60} min" in \
        next(o for o in RULE_OPTIONS if o.word == "timed").help


def test_help_on_the_command_line_names_every_option_with_what_it_does():
    from spider_tui.cli import RULES_HELP

    for o in RULE_OPTIONS:
        assert f"{o.word} ({o.help})" in RULES_HELP


def test_the_help_dialog_names_every_option():
    from spider_tui.ui.widgets.dialogs import HELP

    for o in RULE_OPTIONS:
        name = o.label.split(":")[0]  # "Relaxed", "Undo off", ...
        assert re.search(rf"\b{name}\b", HELP), name


def test_docs_rules_md_lists_every_word_in_order():
    listed = re.search(r"^\s*(`relaxed`.*)$", DOCS.read_text(), re.M)
    assert listed is not None
    assert re.findall(r"`([a-z-]+)`", listed.group(1)) == [o.word for o in RULE_OPTIONS]


def test_winnable_deals_only_applies_where_the_table_says_the_proof_holds():
    from spider_tui.ui.winnable_deals import applies

    for o in RULE_OPTIONS:
        assert applies(o.word) is o.solver, o.word
    assert not applies("spiderette")


def test_every_table_option_opens_a_table_and_the_others_do_not_show_in_the_form():
    """Issue 28 item 9: ``protocol.TABLE_OPTIONS`` is made from ``RULE_OPTIONS``: each option with a
    line in the Open a table form opens a table, alone and all together."""
    from spider_tui.palast.protocol import TABLE_OPTIONS, table_rules

    for word in TABLE_OPTIONS:
        assert table_rules(f"classic+{word}") == word
    assert table_rules("+".join(TABLE_OPTIONS))
    assert "scoring" not in TABLE_OPTIONS and "timed" not in TABLE_OPTIONS and "face-up" not in TABLE_OPTIONS
