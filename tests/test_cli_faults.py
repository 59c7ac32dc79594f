"""Issue 9, items 2, 14 and 15: bad command lines and position files get one clean line."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from spider_tui.cli import main, parse_app_args
from spider_tui.engine import Game


@pytest.mark.parametrize("value", [" 5", "٣", "1_000", "+5", "5 ", "０"])
def test_deal_takes_only_ascii_digits(value, capsys):
    assert main(["--deal", value]) == 2
    err = capsys.readouterr().err
    assert "deal number" in err and err.count("\n") == 1
    assert main(["show", value]) == 2


def test_error_lines_show_escapes_not_send_them(tmp_path, capsys):
    assert main(["--position", str(tmp_path / "\x1b]0;PWNED\x07\x1b[2J")]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "\\x1b]0;PWNED\\x07" in err and err.count("\n") == 1
    assert main(["--bogus\x1b[31m"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "--bogus\\x1b[31m" in err


def test_position_file_with_bom(tmp_path):
    f = tmp_path / "p.txt"
    f.write_bytes(b"\xef\xbb\xbf" + Game.new(3).to_text().encode())
    _, launch = parse_app_args(["--position", str(f)])
    assert Game.from_text(launch.position).to_text() == Game.new(3).to_text()


def test_position_from_dev_zero_is_refused_not_read(capsys):
    assert main(["--position", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert "not a regular file" in err and err.count("\n") == 1


def test_position_file_over_1_mb_is_refused(tmp_path, capsys):
    f = tmp_path / "big.txt"
    f.write_text("# padding\n" * 110_000 + Game.new(3).to_text())
    assert main(["--position", str(f)]) == 2
    assert "larger than 1 MB" in capsys.readouterr().err


def test_position_from_a_fifo_does_not_block(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = []
    t = threading.Thread(target=lambda: result.append(main(["--position", str(fifo)])), daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # unblock the reader so the test process can end
        with open(fifo, "w"):
            pass
        t.join(5)
        pytest.fail("reading a FIFO blocked")
    assert result == [2]
    assert "not a regular file" in capsys.readouterr().err


def test_stats_json_into_a_closed_pipe_has_no_traceback(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "spider_tui", "stats", "--json", "--data-dir", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # like `| head -c 0`: the reader is gone before anything is written
    err = p.stderr.read().decode()
    p.wait(30)
    assert "Traceback" not in err and "BrokenPipeError" not in err
