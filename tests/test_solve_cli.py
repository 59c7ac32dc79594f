"""SPEC §14: `spider solve` — the --json shape, positions from a file, bad arguments."""

import json

import pytest

from spider_tui.cli import main
from spider_tui.engine import Game


def run_json(argv, capsys):
    assert main(["solve", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_shape_for_a_winnable_deal_and_the_moves_replay(capsys):
    out = run_json(["1", "--suits", "1", "--seconds", "30"], capsys)
    assert list(out) == ["result", "moves", "seconds", "nodes", "deal", "suits", "rules"]
    # Issue 22 item 19: the answer names what was solved.
    assert (out["deal"], out["suits"], out["rules"]) == (1, 1, "classic")
    assert out["result"] == "winnable"
    assert isinstance(out["seconds"], float) and isinstance(out["nodes"], int) and out["nodes"] > 0
    g = Game.new(1, suits=1)
    for m in out["moves"]:
        g.play(m)
    assert g.won


def test_suits_and_rules_pick_the_deal(capsys):
    out = run_json(["5", "--suits", "2", "--rules", "classic", "--seconds", "30"], capsys)
    g = Game.new(5, suits=2)
    for m in out["moves"]:
        g.play(m)
    assert g.won


def test_relaxed_rules_are_solved_under_those_rules(capsys):
    out = run_json(["1", "--rules", "relaxed+open", "--seconds", "30"], capsys)
    assert out["result"] == "winnable"
    g = Game.new(1, suits=1, rules="relaxed+open")
    for m in out["moves"]:
        g.play(m)
    assert g.won


NOT_WINNABLE = """suits: 2
stock: -
done: s s s h h h
1: Ks Qs | As
2: Kh Qh | Ah
3: Js | 3s
4: Jh | 3h
5: Ts 2h | 5s
6: Th 4s | 5h
7: 8s 4h 6s | 7s
8: 8h 6h | 7h
9: | 9s
10: | 2s 9h
"""


def test_position_file_not_winnable_has_no_moves(tmp_path, capsys):
    f = tmp_path / "stuck.txt"
    f.write_text(NOT_WINNABLE)
    out = run_json(["--position", str(f)], capsys)
    assert out["result"] == "not winnable" and "moves" not in out


def test_position_file_winnable_moves_start_from_that_position(tmp_path, capsys):
    g = Game.new(1, suits=1)
    for m in ["deal", "deal"]:
        g.play(m)
    f = tmp_path / "mid.txt"
    f.write_text(g.to_text())
    out = run_json(["--position", str(f), "--seconds", "30"], capsys)
    assert out["result"] == "winnable"
    assert out["moves"].count("deal") == 3
    for m in out["moves"]:
        g.play(m)
    assert g.won


def test_out_of_time_is_unknown(capsys):
    out = run_json(["2", "--suits", "4", "--seconds", "0.001"], capsys)
    assert out["result"] == "unknown" and "moves" not in out


def test_plain_output_says_it_peeks_at_hidden_cards(capsys):
    assert main(["solve", "1", "--seconds", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Deal 1 (1 suit): winnable, in ")
    assert "face-down cards and the stock" in out
    assert "deal" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve"], "deal number N or --position"),
        (["solve", "0"], "1..2147483647"),
        (["solve", "5", "--suits", "3"], "suits must be 1, 2 or 4"),
        (["solve", "5", "--seconds", "0"], "more than 0"),
        (["solve", "5", "--seconds", "nan"], "more than 0"),
        (["solve", "5", "--seconds", "abc"], "must be a number"),
        (["solve", "5", "--rules", "bogus"], "unknown rules"),
        (["solve", "5", "--rules", "scorpion"], "Scorpion"),
        (["solve", "5", "--position", "x.txt"], "not both"),
        (["solve", "--position", "/nonexistent/p.txt"], "can't read"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_view_with_unseen_cards_is_refused(tmp_path, capsys):
    f = tmp_path / "view.txt"
    f.write_text(Game.new(3, suits=2).view())
    assert main(["solve", "--position", str(f)]) == 2
    err = capsys.readouterr().err
    assert "unseen cards" in err and err.count("\n") == 1


@pytest.mark.parametrize("rules", ["spiderette", "simple-simon"])
def test_the_one_deck_games_are_solved_under_their_rules(rules, capsys):
    out = run_json(["3", "--rules", rules, "--seconds", "30"], capsys)
    g = Game.new(3, suits=1, rules=rules)
    if out["result"] == "winnable":
        for m in out["moves"]:
            g.play(m)
        assert g.won
    else:
        assert out["result"] in ("not winnable", "unknown") and "moves" not in out


def test_a_bad_position_file_names_the_line_and_no_control_characters_reach_the_terminal(tmp_path, capsys):
    f = tmp_path / "bad\x1b[2Jname.txt"
    f.write_text("suits: 1\n1: | Zz\n")
    assert main(["solve", "--position", str(f)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "\x1b" not in err and "\\x1b" in err


def test_seconds_count_cpu_time_not_wall_time(capsys, monkeypatch):
    # SPEC §14: --seconds counts CPU time.  A wall clock racing ahead (a machine busy with other
    # programs) must not cut the search short: deal 1 is still proved winnable.
    import time

    wall = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(wall)))
    out = run_json(["1", "--suits", "1", "--seconds", "30"], capsys)
    assert out["result"] == "winnable"
