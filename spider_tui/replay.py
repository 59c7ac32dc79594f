"""A record replayed at the table (SPEC §16), as plain logic without Textual.

:class:`Replay` holds a checked record's steps (step 0: the deal, step k: after k actions) and a
:class:`~spider_tui.table.Table` showing the step on the same table widgets a round uses.  It
steps, jumps, plays at 1× or 4× the record's own times, shows the hidden cards on a key, and
makes the position of a step into a practice round ("Play from here").

>>> from spider_tui.records import Record
>>> r = Record(deal=5, suits=1, rules="classic", date="2026-12-01T21:30:00Z", player="you",
...            result="left", moves=1, seconds=2.0, actions=((1500, "deal"),))
>>> rp = Replay(r)
>>> rp.step, rp.last
(0, 1)
>>> moved = rp.forward(); rp.step, rp.table.game.moves
(1, 1)
"""

from __future__ import annotations

from spider_tui.engine import Game
from spider_tui.i18n import _
from spider_tui.records import Record, minutes, positions, result_word
from spider_tui.table import Table

SPEEDS = (0, 1, 4)  #: paused, 1×, 4× (Space goes round them)
MIN_GAP = 0.15  #: seconds: playing never shows two steps closer than this
MAX_GAP = 3.0  #: seconds: nor waits longer than this between two steps (a long think)


def revealed(game: Game) -> Game:
    """The position with every face-down card face up (the hidden-cards key)."""
    g = game.copy()
    g.down = [0] * len(g.down)
    return g


class Replay:
    """Steps of one record on a table (see the module doc)."""

    def __init__(self, record: Record, step: int = 0) -> None:
        self.record = record
        self.steps: list[Game] = list(positions(record))
        self.step = 0
        self.speed = 0
        self.show_hidden = False
        self.table = Table(self.steps[0].copy(), deal_number=record.deal, practice=True)
        self.table.cursor_column = -1  # a replay has no keyboard cursor: no column is marked
        self.go(step)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    # ------------------------------------------------------------------ moving
    def go(self, step: int) -> bool:
        """Show step ``step`` (clamped); False when it was shown already."""
        step = max(0, min(self.last, step))
        changed = step != self.step
        self.step = step
        self._show()
        if self.step == self.last:
            self.speed = 0
        return changed

    def forward(self) -> bool:
        return self.go(self.step + 1)

    def back(self) -> bool:
        return self.go(self.step - 1)

    def home(self) -> bool:
        return self.go(0)

    def end(self) -> bool:
        return self.go(self.last)

    def toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._show()

    def cycle_speed(self) -> int:
        """Space: paused → 1× → 4× → paused.  At the end, playing starts from the beginning."""
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
        if self.speed and self.step == self.last:
            self.go(0)
            self.speed = SPEEDS[1]
        self._show()
        return self.speed

    def delay(self) -> float | None:
        """Seconds until the next step while playing (the record's own gap, sped up); None when
        paused or at the end."""
        if not self.speed or self.step >= self.last:
            return None
        actions = self.record.actions
        before = actions[self.step - 1][0] if self.step > 0 else 0
        gap = (actions[self.step][0] - before) / 1000 / self.speed
        return max(MIN_GAP, min(MAX_GAP, gap))

    def _show(self) -> None:
        game = self.steps[self.step]
        self.table.take_game(revealed(game) if self.show_hidden else game.copy())
        self.table.say(self.status())

    # ------------------------------------------------------------------ words
    def action_text(self, step: int) -> str:
        """The action that led to ``step`` (``""`` for step 0)."""
        return "" if step == 0 else self.record.actions[step - 1][1]

    def status(self) -> str:
        r = self.record
        head = _("Step {step} of {last}").format(step=self.step, last=self.last)
        if self.step:
            ms = r.actions[self.step - 1][0]
            head += f" · {self.action_text(self.step)} · {minutes(ms / 1000)}"
        if self.step == self.last:
            head += " · " + result_word(r.result)
        if self.speed:
            head += f" · ▶ {self.speed}×"
        if self.show_hidden:
            head += " · " + _("hidden cards shown")
        return head

    def title(self) -> str:
        r = self.record
        text = _("Replay · deal {deal} · {suits} · {result} · {moves} moves, {time}").format(
            deal=r.deal, suits=_("{n} suits").format(n=r.suits) if r.suits != 1 else _("1 suit"),
            result=result_word(r.result), moves=r.moves, time=minutes(r.seconds))
        if r.palast is not None:  # a Palast round's record: whose it is, first (SPEC §16, the standings' "watch")
            text = f"{r.player} · {text}"
        return text

    def move_list(self, around: int = 8) -> list[tuple[int, str, bool]]:
        """(step, text, current) for the steps near the current one: the move list's lines."""
        lo = max(1, self.step - around)
        hi = min(self.last, lo + 2 * around)
        lo = max(1, hi - 2 * around)
        return [(s, self.action_text(s), s == self.step) for s in range(lo, hi + 1)]

    # ------------------------------------------------------------------ leaving the replay
    def position_here(self) -> str:
        """"Play from here": the position of this step (with its deal number) for a practice round."""
        return self.steps[self.step].to_text()
