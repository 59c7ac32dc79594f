"""SPEC §9: the app's arguments and `spider stats`."""

from datetime import date

import pytest

from spider_tui.cli import UsageError, main, parse_app_args

TODAY = date(2026, 11, 29)


def parse(*argv):
    return parse_app_args(list(argv), today=lambda: TODAY)[1]


def test_daily_window_edges():
    assert parse("--daily").daily == TODAY
    assert parse("--daily", "2026-11-29").daily == TODAY
    assert parse("--daily", "2026-10-31").daily == date(2026, 10, 31)  # 29 days back
    with pytest.raises(UsageError, match="closed"):
        parse("--daily", "2026-10-30")  # 30 days back
    with pytest.raises(UsageError, match="future"):
        parse("--daily", "2026-11-30")
    with pytest.raises(UsageError):
        parse("--daily", "29.11.2026")


def test_deal_and_suits():
    la = parse("--deal", "77", "--suits", "4", "--four-color")
    assert (la.deal, la.suits, la.four_color) == (77, 4, True)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--suits", "3"], "suits must be 1, 2 or 4"),
        (["--deal", "0"], "1..2147483647"),
        (["--deal", "1", "--daily"], "not allowed with"),
        (["--position", "/no/such/file"], "can't read"),
        (["--rules", "nonsense"], "unknown rules"),
        (["--bogus"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_bad_position_file_names_the_line(tmp_path, capsys):
    p = tmp_path / "p.txt"
    p.write_text("suits: 2\n1: | 5d\n")
    assert main(["--position", str(p)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_stats_with_no_save_file(tmp_path, capsys):
    assert main(["stats", "--data-dir", str(tmp_path / "none")]) == 0
    out = capsys.readouterr().out
    assert "Played" in out
    assert main(["stats", "--json", "--data-dir", str(tmp_path / "none")]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["suits"]["1"]["played"] == 0 and data["suits"]["4"]["win_rate"] is None


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert "spider 0.1.0" in capsys.readouterr().out
