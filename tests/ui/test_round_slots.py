"""Unfinished rounds of two instances, abandoning a saved round, and other edges (SPEC §6–§8, §12)."""

from __future__ import annotations

import tomllib

from spider_tui.cli import main
from spider_tui.engine import Game
from spider_tui.ui.render import ColumnState, Look, draw_column
from spider_tui.ui.widgets import Tableau

SIZE = (100, 30)


def read(data_dir):
    return tomllib.loads((data_dir / "save.toml").read_text())


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
        tableau = app.screen.query_one(Tableau)
        col2, col4 = tableau.columns[1], tableau.columns[3]
        await pilot.click(tableau, offset=(col2.x + 2, col2.picture().rows.index(5)))  # hold 3s
        await pilot.click(tableau, offset=(col4.x + 2, 3), times=2)  # double click on 4s: one move
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
