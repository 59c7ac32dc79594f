"""Issue 33 item 5: one bad character in save.toml (``won = = 1`` at line 15) doesn't reset
everything: what parses is salvaged (stats, Continue, finished lessons, the Palast token), the
original is kept in the ``.bad`` copy and named in the notice, the notice fits 80x24, and a
read-only command (``spider stats``, ``league``) never moves or writes the file."""

from __future__ import annotations

import contextlib
import io
import textwrap
from datetime import datetime

from hypothesis import given, settings, strategies as st

from spider_tui.engine import Game
from spider_tui.store import SaveFile, save_path
from spider_tui.store.lessons import done_lessons, mark_lesson_done
from spider_tui.store.palast import put_login, server_login
from spider_tui.store.savefile import dump_text, salvage_text
from spider_tui.store.stats import RoundResult, RoundState, load_round, record_result, save_round


def _good_save() -> str:
    data: dict = {"version": 1}
    for _ in range(3):
        record_result(data, RoundResult(suits=1, won=True, moves=120, seconds=300.0))
    record_result(data, RoundResult(suits=2, won=False, moves=50, seconds=100.0))
    save_round(data, RoundState(position=Game.new(77, suits=1).to_text(), deal=77, suits=1, rules="classic",
                                moves=4, seconds=30.0, hints=0))
    mark_lesson_done(data, "01-moving")
    put_login(data, "ws://127.0.0.1:8765", "Anna", "secret-token-123")
    return dump_text(data)


def _with_bad_line(text: str) -> tuple[str, int]:
    """``won = 3`` of the 1-suit stats made ``won = = 1`` (the issue's line 15)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("won = 3"))
    lines[at] = "won = = 1"
    return "\n".join(lines), at + 1


def test_one_bad_line_costs_only_itself_and_the_notice_names_it_and_the_copy(tmp_path):
    text, line = _with_bad_line(_good_save())
    path = save_path(tmp_path)
    path.write_text(text)
    save = SaveFile(path, clock=lambda: datetime(2026, 12, 1, 22, 15, 0))
    data = save.load()
    one = data["stats"]["classic"]["1"]
    assert one["played"] == 3 and "won" not in one and one["fewest_moves"] == 120  # only `won` lost
    assert data["stats"]["classic"]["2"]["played"] == 1
    assert load_round(data) is not None and load_round(data).deal == 77  # Continue
    assert done_lessons(data) == {"01-moving"}
    assert server_login(data, "ws://127.0.0.1:8765") == ("Anna", "secret-token-123")  # the Palast token
    kept = tmp_path / "save.toml.bad-20261201-221500"
    assert kept.read_text() == text  # the original, whole, in the .bad copy
    notice = save.take_notice()
    assert notice is not None and f"line {line}" in notice and kept.name in notice
    # it fits the start screen's note at 80x24: the two lines under the menu, 58 columns inside
    # the box (the old notice took three and was cut after the first)
    assert len(textwrap.wrap(notice, 58)) <= 2 and "\n" not in notice
    again = SaveFile(path)
    assert again.load() == data and again.take_notice() is None  # rewritten: the next start is quiet


def test_a_bad_table_header_leaves_out_its_table_not_the_rest():
    data, left = salvage_text('a = 1\n[stats.classic.1\nplayed = 5\n[settings]\nsuits = 2\n')
    assert data == {"a": 1, "settings": {"suits": 2}} and left == [2, 3]


def test_a_read_only_command_never_moves_or_writes_a_bad_file(tmp_path):
    from spider_tui.cli import main

    text, line = _with_bad_line(_good_save())
    path = save_path(tmp_path)
    path.write_text(text)
    before = path.stat().st_mtime_ns
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["stats", "--data-dir", str(tmp_path), "--json"]) == 0
    assert path.read_text() == text and path.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.toml"]  # no .bad copy, no temp file
    assert f"line {line}" in err.getvalue() and "left as it is" in err.getvalue()
    assert '"played": 3' in out.getvalue().replace(" ", "").replace('"played":3', '"played": 3')  # stats, not zeros
    save = SaveFile(path)
    assert save.read()["stats"]["classic"]["1"]["played"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.toml"]


@settings(max_examples=60)
@given(st.data())
def test_salvage_keeps_every_line_it_does_not_name(data):
    # Any one key line of a good save broken (a one-line value): the salvage leaves out that line
    # alone, and every other key reads as before.
    text = _good_save()
    lines = text.split("\n")
    at = data.draw(st.sampled_from([i for i, x in enumerate(lines)
                                    if "=" in x and not x.startswith(("#", " ")) and not x.endswith(("[", '"""'))]))
    lines[at] = lines[at].replace("=", "= =", 1)
    got, left = salvage_text("\n".join(lines))
    assert left == [at + 1]
    import tomllib

    want = tomllib.loads("\n".join(x for i, x in enumerate(text.split("\n")) if i != at))
    assert got == want
