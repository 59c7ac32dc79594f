"""Issue 33 item 8: footers at 80 and 60 columns show their most useful keys first and never a
key cut mid-word (Textual's footer cut the last one at the edge: "q Qu")."""

from __future__ import annotations

from spider_tui.ui.widgets.footer import Footer, FooterItem, key_width


def _shown(app) -> list[FooterItem]:
    return list(app.screen.query_one(Footer).items())


def _wanted(app) -> list[str]:
    """The screen's footer keys in binding order (one per action)."""
    seen, out = set(), []
    for active in app.screen.active_bindings.values():
        if active.binding.show and active.binding.action not in seen:
            seen.add(active.binding.action)
            out.append(active.binding.description)
    return out


async def test_the_start_screens_footer_fits_whole_keys_at_60_and_all_of_them_at_80(make_app):
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        keys = _shown(app)
        wanted = _wanted(app)
        assert 0 < len(keys) < len(wanted)  # not all fit at 60 columns
        assert [k.description for k in keys] == wanted[:len(keys)]  # the first ones, in order
        used = sum(key_width(k.key_display, k.description) for k in keys)
        assert used <= 60 and all(k.x + k.width <= 60 for k in keys)  # each one whole on screen
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert [k.description for k in _shown(app)] == wanted  # all of them fit at 80


async def test_the_game_footer_at_60_columns_has_no_key_cut_at_the_edge(make_app):
    app = make_app(deal=7, suits=1)
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        keys = _shown(app)
        assert keys and all(k.x + k.width <= 60 for k in keys)
        assert [k.description for k in keys] == _wanted(app)[:len(keys)]


async def test_a_press_on_a_footer_key_types_it_and_a_greyed_one_rings_the_bell(make_app):
    app = make_app(deal=3, suits=1, rules="joker")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        joker = next(k for k in _shown(app) if k.key == "J")
        app.table.game.jokers_left = 0  # J is greyed now (still shown)
        app.table.say("")
        app.screen.sync()
        await pilot.pause()
        rang = []
        app.bell = lambda: rang.append(True)
        await pilot.click(None, offset=(joker.x + 1, 29))
        await pilot.pause()
        assert rang and not app.table.joker_pending
        menu = next(k for k in _shown(app) if k.key == "q")
        assert footer.item_at(99) is None
        await pilot.click(None, offset=(99, 29))  # beside the keys: nothing
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        await pilot.click(None, offset=(menu.x + 2, 29))  # q Menu: back to the start screen
        await pilot.pause()
        await pilot.pause()
        assert type(app.screen).__name__ == "StartScreen"
