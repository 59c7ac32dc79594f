"""A ghost (SPEC §16): a record raced on the same deal, advanced by the record's own times.

Plain logic: :meth:`Ghost.progress` gives the ghost's line at a moment of the round's play time
as a Palast opponent's ``progress`` (``player``, ``score``, ``runs``, ``moves``, ``state``,
``seconds``), so the race's own line (``ui/palast/lines.opponent_line``) shows it.
Only that line: a ghost's cards are never shown before the round ends.

>>> from spider_tui.records import Record
>>> r = Record(deal=5, suits=1, rules="classic", date="2026-12-01T21:30:00Z", player="you",
...            result="left", moves=1, seconds=2.0, actions=((1500, "deal"),))
>>> g = Ghost(r)
>>> g.progress(1.0).moves, g.progress(1.5).moves, g.progress(9).state
(0, 1, 'left')
"""

from __future__ import annotations

from bisect import bisect_right

from spider_tui.i18n import _
from spider_tui.palast.messages import Progress
from spider_tui.records import Record, positions, result_word


class Ghost:
    def __init__(self, record: Record, name: str | None = None) -> None:
        self.record = record
        self.name = name or _("ghost ({player})").format(player=record.player)
        self.times = [ms for ms, _move in record.actions]
        # what the line shows at each step (moves, score, runs): small, no positions kept
        self.marks = [(g.moves, g.score or 0, len(g.done)) for g in positions(record)]

    def step_at(self, seconds: float) -> int:
        """How many of the record's actions had been played ``seconds`` into its round."""
        return bisect_right(self.times, int(seconds * 1000))

    def progress(self, seconds: float) -> Progress:
        step = self.step_at(seconds)
        moves, score, runs = self.marks[step]
        done = step >= len(self.times) and seconds >= self.record.seconds
        if done:
            state = "solved" if self.record.won else result_word(self.record.result)
        else:
            state = "playing"
        return Progress(player=self.name, score=score, runs=runs, moves=moves, state=state,
                        seconds=self.record.seconds)

    def finished(self, seconds: float) -> bool:
        return seconds >= self.record.seconds
