"""The special-rules menu logic (SPEC §10)."""

from spider_tui.engine import rules_named
from spider_tui.rules_menu import lines, toggle


def test_toggle_options_combine_into_a_name():
    r = toggle("classic", "scorpion")
    r = toggle(r, "joker")
    assert r.name == "scorpion+joker"
    assert toggle(r, "scorpion").name == "joker"


def test_variant_cycles_through_the_games():
    r = rules_named("classic")
    seen = []
    for _ in range(3):
        r = toggle(r, "variant")
        seen.append(r.variant)
    assert seen == ["spiderette", "simple-simon", "spider"]


def test_fast_implies_timed_and_timed_off_clears_both():
    r = toggle("classic", "fast")
    assert r.fast and r.timed and r.name == "fast"
    assert toggle(r, "fast").name == "timed"
    assert toggle(r, "timed").name == "classic"


def test_lines_mark_what_is_on():
    text = dict(lines("relaxed+practice", ascii=True))
    assert text["relaxed"].startswith("[x]") and text["practice"].startswith("[x]")
    assert text["scorpion"].startswith("[ ]")
    assert "Spider" in text["variant"]


def test_the_palast_form_boxes_its_options_as_the_rules_menu_does():
    # Issue 22 item 18: the rules dialog used ☐/☑ and the Palast form [ ].
    from spider_tui.ui.palast.open_form import OpenForm
    from spider_tui.rules_menu import lines

    form = OpenForm()
    form.choose("joker")
    for ascii in (False, True):
        menu = dict(lines("joker", ascii=ascii))
        palast = dict(form.lines(ascii=ascii))
        assert palast["joker"].split()[0] == menu["joker"].split()[0]
        assert palast["scorpion"].split()[0] == menu["scorpion"].split()[0]
