"""SPEC §9: the command line (show, bad arguments)."""

import subprocess
import sys

import pytest

from spider_tui.cli import main
from spider_tui.engine import Game


def test_show_prints_the_deal_in_notation(capsys):
    assert main(["show", "1234", "--suits", "2"]) == 0
    out = capsys.readouterr().out
    assert out == Game.new(1234, suits=2).to_text()
    assert Game.from_text(out).deal_number == 1234


def test_show_defaults_to_one_suit(capsys):
    main(["show", "5"])
    assert capsys.readouterr().out.startswith("suits: 1\n")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["show", "0"], "1..2147483647"),
        (["show", "2147483648"], "1..2147483647"),
        (["show", "abc"], "whole number"),
        (["show", "5", "--suits", "3"], "suits must be 1, 2 or 4"),
        (["show"], "required"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_module_entry_point_runs():
    r = subprocess.run([sys.executable, "-m", "spider_tui", "show", "9"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("suits: 1")


def test_help_names_every_command_and_an_unknown_one_gets_the_list(capsys):
    # Issue 22 item 11: --help named show, stats and solve only; `spider frobnicate` said
    # "unrecognized arguments" with no list.
    import pytest as _pytest

    from spider_tui.cli import main

    with _pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("show", "stats", "solve", "web", "server", "league", "bots"):
        assert f"spider {name} " in out, name
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "frobnicate" in err
    assert all(name in err for name in ("show", "stats", "solve", "web", "server", "league", "bots"))


def test_league_and_bots_use_the_remembered_server_and_say_why_nothing_answers(tmp_path, monkeypatch, capsys):
    # Issue 22 item 19: `spider league` ignored the server remembered in the save file; `spider
    # bots` with no server printed "errors: 2", exit 1, with no reason.
    import socket

    from spider_tui.cli import main
    from spider_tui.store import SaveFile
    from spider_tui.store.palast import put_login

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    url = f"ws://127.0.0.1:{s.getsockname()[1]}"
    s.close()  # nothing listens there
    monkeypatch.setenv("SPIDER_DATA_DIR", str(tmp_path))
    SaveFile(tmp_path / "save.toml").update(lambda d: put_login(d, url, "Ann", "tok"))
    assert main(["league"]) == 1
    assert url in capsys.readouterr().err
    assert main(["bots", "--players", "2", "--seconds", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and url in err and "Can't reach" in err and "nothing answers there" in err and "errors" not in err


def test_stats_lines_have_no_trailing_blanks(tmp_path, monkeypatch, capsys):
    # Issue 22 item 19: `spider stats` padded its lines with spaces.
    from spider_tui.cli import main

    monkeypatch.setenv("SPIDER_DATA_DIR", str(tmp_path))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Played" in out and all(line == line.rstrip() for line in out.splitlines())
