"""Make the README's SVG screenshots from fixed deals: ``python scripts/export_screenshots.py``.

Runs the real app headless (``run_test``) with a throw-away data dir, presses keys, and saves
an SVG per scene into ``screenshots/``.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "screenshots"
sys.path.insert(0, str(ROOT))

from tests.positions import LONG  # noqa: E402  (a column too long for 80x24)

NEARLY_WON = """\
suits: 2
deal: 77
moves: 212
done: s h s h s h s
1: | Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h
2: | Ah
"""


# name, launch options, keys, size
SCENES = [
    ("start", {}, [], (80, 24)),
    ("deal-1-2-suits", {"deal": 1, "suits": 2}, [], (100, 30)),
    ("held-group-targets", {"deal": 1, "suits": 2}, ["9"], (100, 30)),
    ("hint", {"deal": 1, "suits": 2}, ["9", "5", "question_mark"], (100, 30)),
    ("mid-game-4-suits", {"deal": 20261129, "suits": 4, "four_color": True},
     ["question_mark", "enter", "d", "question_mark"], (120, 40)),
    ("won", {"position": NEARLY_WON}, ["2", "1"], (80, 24)),
    ("help", {"deal": 1}, ["f1"], (100, 30)),
    ("ascii-80x24", {"deal": 7, "suits": 4, "ascii": True}, ["d", "3"], (80, 24)),
    ("retry-over-table", {"deal": 1, "suits": 2}, ["9", "5", "r"], (80, 24)),
    ("whole-column", {"position": LONG}, ["v", "1"], (80, 24)),
    ("stats-over-table", {"deal": 1, "suits": 2}, ["9", "5", "s"], (100, 30)),
    # SPEC §15: the path (a player with 3 wins of 4 at 1 suit: the next level suggested once),
    # lesson 1 in progress and solved, the glossary, points where they are earned.
    ("path", {}, [], (80, 24)),
    ("lesson-in-progress", {}, ["l", "enter", "1", "2"], (80, 24)),
    ("lesson-solved", {}, ["l", "enter", "1", "2", "3", "2", "5", "2", "5", "6"], (80, 24)),
    ("lessons", {}, ["l", "enter", "1", "2", "3", "2", "5", "2", "5", "6", "escape", "down"], (80, 24)),
    ("glossary", {"deal": 1}, ["help:GLOSSARY"], (100, 30)),
    ("points-where-earned", {"deal": 1, "suits": 2, "rules": "scoring"}, ["2", "4"], (100, 30)),
    # SPEC §17: the compact table of a phone's terminal in portrait, a group held and its targets.
    ("compact-40x20", {"deal": 1, "suits": 2}, ["9", "5", "d", "9"], (40, 20)),
    # SPEC §17: the same game in German (the hint on show).
    ("german-80x24", {"deal": 1, "suits": 2, "lang": "de"}, ["question_mark"], (80, 24)),
]


def record_path(save) -> None:
    """The 'path' scene's player: 4 rounds at 1 suit, 3 of them won."""
    from spider_tui.store import RoundResult, record_result

    def change(d) -> None:
        for won in (True, False, True, True):
            record_result(d, RoundResult(suits=1, won=won, moves=160 if won else 70, seconds=900.0, rules="classic"))

    save.update(change)


async def shoot(name: str, launch: dict, keys: list[str], size: tuple[int, int], data: Path) -> Path:
    from spider_tui.store import SaveFile
    from spider_tui.ui.app import SpiderApp
    from spider_tui.ui_launch import Launch

    from spider_tui.ui import messages

    save = SaveFile(data / f"{name}.toml")
    if name == "path":
        record_path(save)
    app = SpiderApp(save, Launch(**launch), today=lambda: date(2026, 11, 29), rng=random.Random(1))
    async with app.run_test(size=size) as pilot:
        for k in keys:
            if k.startswith("help:"):  # help opened at a section, as the race screen opens it
                app.post_message(messages.ShowHelp(section=k.split(":", 1)[1]))
                await pilot.pause()
                continue
            if k == "enter" and app.table is not None and app.table.hint_move is not None:
                h = app.table.hint_move  # play the hinted move with its two column keys
                if not h.is_deal:
                    await pilot.press(str((h.source + 1) % 10), str((h.target + 1) % 10))
                    continue
            await pilot.press(k)
        await pilot.pause()
        path = OUT / f"{name}.svg"
        app.save_screenshot(filename=path.name, path=str(OUT))
    return path


#: The bytes of the Palast screenshots' deal code (p-iwygzbdzjwblunbm7bnbdqrtni; every Palast
#: round is dealt from 16 bytes, SPEC §2).
PALAST_DEAL = bytes.fromhex("45b06c84794d82ba342cf85a11c2336a")


async def shoot_palast(data: Path) -> list[Path]:
    """The Palast (SPEC §13) on a real server in this process, a fixed deal code: the lobby, a race at
    100x30 against Bo (a headless client), the round standings."""
    from spider_tui.palast.client.client import PalastClient
    from spider_tui.palast.server.db import open_store
    from spider_tui.palast.server.server import PalastServer
    from spider_tui.palast.server.table import Options
    from spider_tui.store import SaveFile
    from spider_tui.ui.app import SpiderApp
    from spider_tui.ui.palast.lobby import PalastScreen
    from spider_tui.ui.palast.race import RaceScreen
    from spider_tui.ui_launch import Launch

    server = PalastServer(open_store(None, data / "palast"), "127.0.0.1", 8765 + 13,
                          options=Options(progress_delay=0.05, draw=lambda: PALAST_DEAL))
    await server.start()
    shots = []

    async def until(pilot, pred) -> None:
        for _ in range(1500):
            if pred():
                return
            await pilot.pause(0.02)
        raise RuntimeError("the Palast screen never showed what was expected")

    def shot(app, name: str) -> None:
        app.save_screenshot(filename=f"{name}.svg", path=str(OUT))
        shots.append(OUT / f"{name}.svg")

    for size, scenes in (((80, 24), ("palast-lobby", "palast-standings")), ((100, 30), ("palast-race",))):
        app = SpiderApp(SaveFile(data / f"palast-{size[0]}.toml"), Launch(server=f"ws://127.0.0.1:{8765 + 13}"),
                        today=lambda: date(2026, 11, 29), rng=random.Random(1))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.screen.query("#c-name"))
            app.screen.query_one("#c-name").value = f"Anna{size[0]}"
            await app.screen.go()
            await until(pilot, lambda: isinstance(app.screen, PalastScreen) and app.screen.session.tables)
            lobby = app.screen
            s = lobby.session
            s.now = lambda: (s.race.ends_at - 83.4) if s.race is not None else 0.0
            bo = await PalastClient.connect(s.url)
            await bo.hello(f"Bo{size[0]}", None)
            if "palast-lobby" in scenes:
                await bo.open(suits=2, rules="joker+fast", rounds=5, seats=3)
                await s.refresh()
                await pilot.pause()
                shot(app, "palast-lobby")
                await bo.leave()
            await s.open(rounds=2, seats=2)
            await bo.join(table=s.table.id)
            await until(pilot, lambda: len(s.table.players) == 2)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, RaceScreen))
            ev = await bo.wait_for("round")
            from spider_tui.engine import Game

            view = Game.from_text(ev["position"])
            for _ in range(3):
                answer = await bo.play(str(view.hint()))
                view = Game.from_text(answer["position"])
            await until(pilot, lambda: s.opponents[bo.name].moves == 3)
            for _ in range(2):
                hint = s.race.game.hint()
                await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
                await until(pilot, lambda: not s._pending)
            await pilot.press("question_mark")
            await pilot.pause()
            if "palast-race" in scenes:
                shot(app, "palast-race")
            if "palast-standings" in scenes:
                await bo.play("give up")
                await pilot.press("g", "y")
                await until(pilot, lambda: app.screen is lobby and s.phase == "standings")
                await pilot.pause()
                shot(app, "palast-standings")
            await bo.close()
            await s.close()
    await server.stop()
    return shots


def fixed_records(data: Path) -> list:
    """Three records with fixed dates and times (SPEC §16): deal 1 at 2 suits played by the hint
    and given up, deal 20261129 at 4 suits left, deal 7 at 1 suit won by the solver's line."""
    from spider_tui.engine import Game
    from spider_tui.engine.solve import solve
    from spider_tui.records import Record
    from spider_tui.store.records import RecordStore

    def played(deal: int, suits: int, moves: list[str], result: str, date: str) -> Record:
        g = Game.new(deal, suits=suits)
        acts = []
        for i, m in enumerate(moves):
            acts.append((4000 + i * 3500 + (i * 733) % 2100, str(g.play(m))))
        return Record(deal=deal, suits=suits, rules="classic", date=date, player="you", result=result,
                      moves=g.moves, seconds=acts[-1][0] / 1000 + 2, actions=tuple(acts))

    def by_hint(deal: int, suits: int, n: int) -> list[str]:
        g, out = Game.new(deal, suits=suits), []
        for _ in range(n):
            h = g.hint()
            if h is None:
                break
            out.append(str(g.play(h)))
        return out

    won = solve(Game.new(7, suits=1), max_nodes=400_000).moves or []
    made = [played(20261129, 4, by_hint(20261129, 4, 30), "left", "2026-11-28T19:12:40Z"),
            played(7, 1, won, "won", "2026-11-29T08:03:11Z") if won else None,
            played(1, 2, by_hint(1, 2, 24), "gave up", "2026-11-29T21:30:00Z")]
    store = RecordStore(data)
    for r in made:
        if r is not None:
            store.add(r)
    return [r for r in made if r is not None]


async def shoot_records(data: Path) -> list[Path]:
    """The Records list (100x30), a replay at 80x24 (hidden cards shown), a ghost race (100x30)."""
    from spider_tui.store import SaveFile
    from spider_tui.ui.app import SpiderApp
    from spider_tui.ui.screens.records_screen import RecordsScreen, ReplayScreen
    from spider_tui.ui.screens.ghost_screen import GhostScreen
    from spider_tui.ui_launch import Launch

    data = data / "records-shots"
    data.mkdir(exist_ok=True)
    made = fixed_records(data)
    shots = []

    async def until(pilot, pred) -> None:
        for _ in range(1500):
            if pred():
                return
            await pilot.pause(0.02)
        raise RuntimeError("the records screen never showed what was expected")

    def shot(app, name: str) -> None:
        app.save_screenshot(filename=f"{name}.svg", path=str(OUT))
        shots.append(OUT / f"{name}.svg")

    for name, size in (("records-list", (100, 30)), ("replay-80x24", (80, 24)), ("ghost-race", (100, 30))):
        app = SpiderApp(SaveFile(data / "save.toml"), Launch(), today=lambda: date(2026, 11, 29), rng=random.Random(1))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, RecordsScreen))
            if name == "records-list":
                await pilot.pause()
                shot(app, name)
                continue
            if name == "replay-80x24":
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.query("#replay-moves"))
                for _ in range(12):
                    await pilot.press("right")
                await pilot.press("c")
                await pilot.pause()
                shot(app, name)
                continue
            app.race(made[0])  # deal 20261129 at 4 suits, the ghost 40 s into its round
            await until(pilot, lambda: isinstance(app.screen, GhostScreen) and app.screen.query("#opponents"))
            screen = app.screen
            for _ in range(3):
                h = screen.table.game.hint()
                await pilot.press(str((h.source + 1) % 10), str((h.target + 1) % 10))
            screen.table.clock = lambda: 40.0
            screen.table._running_since = 0.0
            screen.show_ghost()
            await pilot.pause()
            shot(app, name)
    return shots


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SPIDER_DATA_DIR"] = tmp
        for name, launch, keys, size in SCENES:
            path = await shoot(name, launch, keys, size, Path(tmp))
            print(path.relative_to(ROOT))
        for path in await shoot_palast(Path(tmp)):
            print(path.relative_to(ROOT))
        for path in await shoot_records(Path(tmp)):
            print(path.relative_to(ROOT))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    asyncio.run(main())
