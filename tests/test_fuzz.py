"""Issue 9: the fuzz suite.  Markup and escapes, save-file faults, position texts, dialog clicks.

Bounded for CI (a few seconds); ``SPIDER_FUZZ_LONG=1`` runs many more trials.  Each fuzz prints
``fuzz <name>: trials=N failures=M`` (see with ``pytest -s``) and fails with the first failures.
"""

from __future__ import annotations

import io
import os
import random
import tomllib
import unicodedata

import pytest
from rich.console import Console

from spider_tui.engine import Game, PositionError
from spider_tui.safe_text import safe, visible
from spider_tui.store import SaveError, SaveFile, summary
from spider_tui.store.savefile import dump_text

LONG = bool(os.environ.get("SPIDER_FUZZ_LONG"))


def trials(ci: int, long: int) -> int:
    return long if LONG else ci


def report(name: str, n: int, failures: list[str]) -> None:
    print(f"fuzz {name}: trials={n} failures={len(failures)}")
    assert not failures, f"{len(failures)} of {n} failed; first: {failures[:3]}"


# -- text pieces that have hurt before -----------------------------------------------------------

NASTY = [
    "[@click=app.screenshot('victim.txt','/tmp')]CLICKME[/]", "[/]", "[x]", "p3[x]q", "[b]", "[link=http://x]y[/link]",
    "\x1b]0;PWNED\x07", "\x1b[2J", "\x1b[31m", "\x9b31m", "\x07", "\x00", "\r", "\t", "\x7f", "\u202e", "\ud800",
    "\x1bP+q\x1b\\", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "ﾟ", "²", "٣", "\ufeff", "😀", "e\u0301",
]


def nasty_text(rng: random.Random, n: int = 4) -> str:
    parts = []
    for _ in range(rng.randint(1, n)):
        kind = rng.random()
        if kind < 0.5:
            parts.append(rng.choice(NASTY))
        elif kind < 0.8:
            parts.append("".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(1, 6))))
        else:
            parts.append(rng.choice(["a", "save.toml", "classic", " ", "=", "\n", '"', "'"]))
    return "".join(parts)


def test_fuzz_markup_and_escapes_are_shown_never_sent():
    rng = random.Random(1)
    n = trials(3000, 100_000)
    failures = []
    for _ in range(n):
        text = nasty_text(rng)
        shown = visible(text)
        out = io.StringIO()
        Console(file=out, width=400, color_system=None, force_terminal=True, legacy_windows=False).print(
            safe(text), soft_wrap=True, end="")
        printed = out.getvalue()
        bad = [c for c in shown + printed if c != "\n" and unicodedata.category(c) in ("Cc", "Cs")]
        if bad or "\u202e" in printed or safe(text).plain != shown or printed != shown:
            failures.append(repr(text))
        elif "\n" in visible(text, newlines=False):
            failures.append("newline kept: " + repr(text))
    report("markup+escapes", n, failures)


# -- save-file faults -----------------------------------------------------------------------------

GOOD = dump_text({
    "version": 1, "total_play_seconds": 123.5,
    "settings": {"suits": 2, "rules": "classic", "four_color": True, "ascii": False},
    "stats": {"classic": {"1": {"played": 5, "won": 2, "fewest_moves": 140, "fastest_seconds": 600.5},
                          "2": {"played": 3, "won": 0}}},
    "daily": {"won": {"1": ["2026-11-28"]}},
    "rounds": {"abc": {"position": Game.new(3).to_text(), "deal": 3, "suits": 1, "rules": "classic",
                       "moves": 4, "seconds": 9.5, "hints": 0, "saved_at": 5.0}},
}).encode()

VALUES = ["-1", "9223372036854775808", '"2"', "1.5", "true", "inf", "nan", "[]", "{}", '"\\u001b[2J"',
          '"[/]"', "[" * 40 + "]" * 40, "1979-05-27", '"""a\nb"""']


def mutate(rng: random.Random, raw: bytes) -> bytes:
    lines = raw.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.35 and b" = " in lines[i]:  # a known key gets an odd value
            key = lines[i].split(b" = ", 1)[0]
            lines[i] = key + b" = " + rng.choice(VALUES).encode()
        elif kind < 0.55:  # a new key with an odd name
            name = nasty_text(rng, 2).replace("\\", "\\\\").replace('"', '\\"')
            name = "".join(c if c >= " " and c != "\x7f" and not 0xD800 <= ord(c) <= 0xDFFF else f"\\u{ord(c):04x}" for c in name)
            lines.insert(i, f'"{name}" = {rng.choice(VALUES)}'.encode("utf-8", "surrogatepass"))
        elif kind < 0.7:  # a byte flipped
            line = bytearray(lines[i] or b" ")
            line[rng.randrange(len(line))] = rng.randrange(256)
            lines[i] = bytes(line)
        elif kind < 0.8:
            lines = lines[: rng.randrange(len(lines) + 1)]  # cut short (a full disk in another tool)
            if not lines:
                lines = [b""]
        elif kind < 0.9:
            lines.insert(i, b"x = " + b"[" * rng.choice([10, 300, 1200]) + b"]" * rng.choice([10, 300, 1200]))
        else:
            del lines[i]
            if not lines:
                lines = [b""]
    return b"\n".join(lines)


def test_fuzz_save_file_faults(tmp_path):
    rng = random.Random(2)
    n = trials(150, 5_000)
    failures = []
    for trial in range(n):
        d = tmp_path / f"t{trial % 50}"
        for old in d.glob("*"):
            old.unlink()
        d.mkdir(exist_ok=True)
        raw = mutate(rng, GOOD)
        (d / "save.toml").write_bytes(raw)
        save = SaveFile(d / "save.toml")
        try:
            data = save.load()
            summary(data)
            notice = save.take_notice()
            if notice is not None and "\n" in notice:
                failures.append(f"two-line notice for {raw!r}")
            save.update(lambda x: x.setdefault("fuzz", trial))
            again = SaveFile(d / "save.toml")
            if again.load().get("fuzz") != trial or again.take_notice() is not None:
                failures.append(f"not read back cleanly: {raw!r}")
            if notice is not None and not list(d.glob("save.toml.bad-*")):
                failures.append(f"notice but nothing kept aside: {raw!r}")
            tomllib.loads((d / "save.toml").read_text("utf-8"))
        except SaveError as e:
            failures.append(f"SaveError {e} for {raw!r}")
        except Exception as e:  # noqa: BLE001 - any other exception is the failure we look for
            failures.append(f"{type(e).__name__}: {e} for {raw!r}")
    report("save-file faults", n, failures)


# -- position texts -------------------------------------------------------------------------------

TOKENS = ["suits:", "rules:", "deal:", "moves:", "stock:", "done:", "jokers:", "score:", "1:", "10:", "11:", "²:",
          "٣", "|", "-", "Ks", "Ah", "Td", "9c", "p3[x]q", "[/]", "\x1b[2J", "99999999999", "1_000", " 5", "-3",
          "#", "\n", "\n", "\n", "classic", "scorpion", "spiderette+joker", "bogus", "9" * 5000, "\ufeff", "s", "h"]


def position_text(rng: random.Random) -> str:
    if rng.random() < 0.4:  # a real position, damaged
        lines = Game.new(rng.randint(1, 10**6), suits=rng.choice([1, 2, 4])).to_text().split("\n")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(TOKENS).strip("\n")
            lines[i] = " ".join(words)
        return "\n".join(lines)
    return " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 40)))


def test_fuzz_position_texts():
    rng = random.Random(3)
    n = trials(1500, 200_000)
    failures = []
    for _ in range(n):
        text = position_text(rng)
        try:
            g = Game.from_text(text)
        except PositionError:
            continue
        except Exception as e:  # noqa: BLE001
            failures.append(f"{type(e).__name__}: {str(e)[:80]} for {text[:200]!r}")
            continue
        try:
            if Game.from_text(g.to_text()).to_text() != g.to_text():
                failures.append(f"no round trip: {text[:200]!r}")
        except Exception as e:  # noqa: BLE001
            failures.append(f"to_text not readable ({type(e).__name__}): {text[:200]!r}")
    report("position texts", n, failures)


# -- dialog clicks --------------------------------------------------------------------------------


@pytest.mark.pilot
@pytest.mark.parametrize("seed", range(2 if not LONG else 12))
async def test_fuzz_dialog_clicks(tmp_path, seed):
    """Random bursts of clicks on every chip and keys, over Confirm, Won and Help: the game screen
    stays, the app keeps answering, a round is recorded at most once."""
    from textual.events import MouseDown, MouseUp
    from textual.pilot import _get_mouse_message_arguments

    from spider_tui.ui.app import SpiderApp
    from spider_tui.ui.screens.game_screen import GameScreen
    from spider_tui.ui.screens.start_screen import StartScreen
    from spider_tui.ui_launch import Launch

    rng = random.Random(seed)
    app = SpiderApp(SaveFile(tmp_path / "save.toml"), Launch(deal=5, suits=1), rng=random.Random(seed))
    steps = 15 if not LONG else 100
    tables = set()
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(steps):
            tables.add(id(app.table))
            dialog = app.dialog  # Confirm, Won and Help are drawn over the table
            if dialog is not None and rng.random() < 0.7:
                chips = [w for w in dialog.query("Chip")]
                if chips:
                    kwargs = _get_mouse_message_arguments(rng.choice(chips), (1, 0), button=1)
                    for _ in range(rng.randint(1, 3)):
                        app.post_message(MouseDown(**kwargs))
                        app.post_message(MouseUp(**kwargs))
            else:
                await pilot.press(rng.choice(["d", "d", "u", "r", "n", "g", "y", "n", "f1", "escape", "1", "2", "enter"]))
            await pilot.pause()
            assert len(app.screen_stack) >= 2, app.screen_stack
            # A round or the start screen (q or Esc in a round goes there), never a dead app.
            assert isinstance(app.screen_stack[1], (GameScreen, StartScreen)), app.screen_stack
            if isinstance(app.screen, StartScreen):
                await pilot.press("n")  # back into a round (or the question over a saved one)
                await pilot.pause()
                assert isinstance(app.screen, GameScreen) or app.dialog is not None, app.screen_stack
        assert app.book.writer.flush(5)
    data = SaveFile(tmp_path / "save.toml").load()
    assert summary(data)["suits"]["1"]["played"] <= len(tables)  # no round counted twice
