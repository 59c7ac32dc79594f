"""Unfinished rounds of two instances, abandoning a saved round, and other edges (SPEC §6–§8, §12)."""

from __future__ import annotations

import tomllib

from spider_tui.cli import main
from spider_tui.engine import Game
from spider_tui.store.rounds import latest_round
from spider_tui.ui.widgets.dialogs import Confirm
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.render import ColumnState, Look, draw_column
from spider_tui.ui.widgets import ColumnView

SIZE = (100, 30)


def read(data_dir):
    return tomllib.loads((data_dir / "save.toml").read_text())


async def test_two_live_rounds_never_count_each_other(make_app, data_dir):
    a, b = make_app(deal=7, suits=2), make_app(deal=1, suits=2)
    async with a.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        a.store_round()
    async with b.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        b.store_round()
    data = read(data_dir)
    assert "stats" not in data or not data["stats"].get("classic")
    assert len(data["rounds"]) == 2  # both kept for Continue


async def test_new_from_the_start_screen_asks_before_ending_a_saved_round(make_app, data_dir):
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "q")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert isinstance(app.dialog, Confirm)
        await pilot.press("n")  # no: the round stays
        assert latest_round(read(data_dir)) is not None
        await pilot.press("n", "y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    data = read(data_dir)
    assert data["stats"]["classic"]["2"]["played"] == 1
    assert latest_round(data) is None


async def test_continue_of_an_old_single_round_save_keeps_its_slot(make_app, data_dir):
    data_dir.mkdir(parents=True)
    text = Game.new(5, suits=1).to_text().replace("moves: 0", "moves: 3")
    (data_dir / "save.toml").write_text('version = 1\n[round]\nposition = """\n' + text + '"""\nsuits = 1\nmoves = 3\ndeal = 5\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert app.table.deal_number == 5
        await pilot.press("d")
        app.store_round()
    data = read(data_dir)
    assert "stats" not in data or not data["stats"]  # the continued round was not counted as lost
    assert list(data["rounds"]) == ["legacy"] and "round" not in data


async def test_retry_of_a_continued_practice_round_gives_its_start_position(make_app, data_dir):
    start = "suits: 4\n1: | 9h\n2: 4c | 8s\n3: | Kd\n"
    app = make_app(position=start)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "1", "q")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert app.table.moves == 1
        await pilot.press("r", "y")
        await pilot.pause()
        assert app.table.moves == 0 and app.table.game.to_text() == Game.from_text(start).to_text()


async def test_new_keeps_the_command_line_suit_count(make_app):
    app = make_app(suits=4)
    async with app.run_test(size=SIZE) as pilot:
        assert app.table.suits == 4
        await pilot.press("n")
        await pilot.pause()
        assert app.table.suits == 4


async def test_keys_do_nothing_while_the_table_is_hidden(make_app):
    app = make_app(deal=7)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.press("8", "3", "d")
        assert app.table.moves == 0


async def test_double_click_on_a_target_makes_one_move(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        col2 = app.screen.query_one("#col2", ColumnView)
        await pilot.click(col2, offset=(2, col2.picture().rows.index(5)))  # hold 3s
        col4 = app.screen.query_one("#col4", ColumnView)
        await pilot.click(col4, offset=(2, 3), times=2)  # double click on 4s: one move
        assert app.table.moves == 1


def test_unreadable_save_file_is_one_line_not_a_traceback(tmp_path, capsys):
    (tmp_path / "save.toml").mkdir()
    assert main(["stats", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spider: ") and err.count("\n") == 1 and "Traceback" not in err


async def test_app_plays_on_when_the_save_file_cannot_be_read(make_app, data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "save.toml").mkdir()
    app = make_app(deal=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert app.table.moves == 1
        assert any("save file" in n.message for n in app.told)


def test_a_long_scorpion_column_keeps_its_exposed_card():
    cards = "Ks Qh Jd Tc 9s 8h 7d 6c 5s 4h 3d 2c Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s Ad"
    g = Game.from_text(f"suits: 4\nrules: scorpion\n1: 5c | {cards}\n")
    st = ColumnState(cards=tuple(g.columns[0]), down=g.down[0], movable=g.movable(0))
    pic = draw_column(st, 1, 8, 19, Look())
    assert len(pic.rows) == 19
    assert pic.rows[-1] == len(g.columns[0]) - 1 and "A♦" in pic.text.plain.splitlines()[-1]
    assert "⋮" in pic.text.plain


def test_an_empty_column_label_fits_its_width():
    pic = draw_column(ColumnState(cards=(), down=0, movable=0), 3, 8, 19, Look())
    slot = pic.text.plain.splitlines()[1]
    assert slot.startswith("[") and slot.rstrip().endswith("]") and len(slot) == 8
