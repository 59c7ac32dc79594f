"""Points where they are earned (SPEC §15): in a scored round each action's points show for a
moment at the place that earned them: beside the card turned up, on the join, on the completed
run's slot, and in the bar (an undo, the bonus for clearing the table).  Plain Python: this says
what shows where; the screen draws it, green for a gain and red for a loss, the sign always
written, and drops it with the next action.

>>> from spider_tui.engine import Game
>>> g = Game.from_text("suits: 2\\nrules: scoring\\n1: Ah | 5s\\n2: 6s\\n3: Kh\\n")
>>> before = len(g.done)
>>> [(e.where, e.column, e.text) for e in earned(g.play("1>2"), g, before)]
[('card', 0, '+3'), ('join', 1, '+2')]
>>> [(e.where, e.text) for e in undone(g.score, g.score - 1 - 5)]
[('bar', '-1 undo'), ('bar', '-5 taken back')]
"""

from __future__ import annotations


from spider_tui.engine import Game
from spider_tui.engine.frozen import Frozen
from spider_tui.engine.moves import Played
from spider_tui.engine.scoring import JOIN_POINTS, REVEAL_POINTS, RUN_POINTS, UNDO_POINTS, win_bonus


class Earned(Frozen):
    """Points shown at one place: ``where`` is ``card`` (the card turned up: ``column`` and
    ``index`` of the card), ``join`` (the group's lead card on its new column), ``run`` (the run
    slot ``slot``) or ``bar`` (beside the score)."""

    __slots__ = ("where", "points", "column", "index", "slot", "note")
    where: str
    points: int
    column: int | None  # 0-based
    index: int | None  # the card's index in its column
    slot: int | None
    note: str

    def __init__(self, where: str, points: int, column: int | None = None, index: int | None = None,
                 slot: int | None = None, note: str = "") -> None:
        put = object.__setattr__
        for name, value in zip(self.__slots__, (where, points, column, index, slot, note)):
            put(self, name, value)

    @property
    def text(self) -> str:
        """The sign always written: ``+3``, ``-1``; ``note`` after it (``-1 undo``)."""
        sign = "+" if self.points >= 0 else "-"
        return f"{sign}{abs(self.points)}" + (f" {self.note}" if self.note else "")

    @property
    def gain(self) -> bool:
        return self.points >= 0


def earned(played: Played, game: Game, runs_before: int) -> tuple[Earned, ...]:
    """Where the points of the action ``played`` (just played on ``game``) were earned.
    ``runs_before``: the completed runs before it.  Empty without the Scoring rule."""
    if game.score is None or not played.points:
        return ()
    s = game.suits
    out: list[Earned] = []
    left = played.points
    for c, _card in played.turned_up:
        out.append(Earned("card", REVEAL_POINTS[s], column=c, index=len(game.columns[c]) - 1))
        left -= REVEAL_POINTS[s]
    for i, _ in enumerate(played.completed):
        out.append(Earned("run", RUN_POINTS[s], slot=runs_before + i))
        left -= RUN_POINTS[s]
    completed_on = {col for col, _ in played.completed}
    if played.is_deal:
        for c, card in enumerate(played.dealt):
            cards = game.columns[c] if c < len(game.columns) else []
            if c not in completed_on and len(cards) >= 2 and cards[-1] == card and cards[-2] == card + 1:
                out.append(Earned("join", JOIN_POINTS[s], column=c, index=len(cards) - 1))
                left -= JOIN_POINTS[s]
    elif played.source >= 0 and played.target not in completed_on and played.count:
        t = played.target
        cards = game.columns[t]
        lead = len(cards) - played.count
        if lead >= 1 and cards[lead - 1] == cards[lead] + 1 and left >= JOIN_POINTS[s]:
            out.append(Earned("join", JOIN_POINTS[s], column=t, index=lead))
            left -= JOIN_POINTS[s]
    out.extend(_bar(game, left))
    return tuple(out)


def _bar(game: Game, left: int) -> list[Earned]:
    """What is left shows in the bar: the bonus for clearing the table, labelled with the bonus
    alone (a join that left the table with the last run is its own ``+N``, not added in)."""
    if not left:
        return []
    bonus = win_bonus(game.suits, game.moves, game.jokers_left) if game.won else 0
    if bonus and 0 < bonus <= left:
        rest = left - bonus
        return [Earned("bar", bonus, note="bonus")] + ([Earned("bar", rest)] if rest else [])
    return [Earned("bar", left)]


def undone(score_before: int | None, score_after: int | None) -> tuple[Earned, ...]:
    """An undo in a scored round: its cost in the bar, and the points it took back."""
    if score_before is None or score_after is None:
        return ()
    out = [Earned("bar", UNDO_POINTS, note="undo")]
    back = score_after - score_before - UNDO_POINTS
    if back:
        out.append(Earned("bar", back, note="taken back"))
    return tuple(out)


def told_points(game: Game, gained: int, runs_before: int, column: int | None = None) -> tuple[Earned, ...]:
    """Points a Palast server told after the action (the row a deal brought, the card a joker
    brought): ``gained`` in all.  They show where they were earned: on each column whose top
    card now lies on its own suit one higher (a join; at ``column`` only, a joker's, when given),
    on the slot of each run completed, and what is left in the bar."""
    if game.score is None or not gained:
        return ()
    s = game.suits
    out: list[Earned] = []
    left = gained
    for slot in range(runs_before, len(game.done)):
        if left >= RUN_POINTS[s]:
            out.append(Earned("run", RUN_POINTS[s], slot=slot))
            left -= RUN_POINTS[s]
    for c in range(len(game.columns)) if column is None else [column]:
        cards = game.columns[c] if 0 <= c < len(game.columns) else []
        if left >= JOIN_POINTS[s] and len(cards) >= 2 and len(cards) - 2 >= game.down[c] \
                and cards[-2] == cards[-1] + 1:
            out.append(Earned("join", JOIN_POINTS[s], column=c, index=len(cards) - 1))
            left -= JOIN_POINTS[s]
    out.extend(_bar(game, left))
    return tuple(out)


def joker_column(action: str) -> int | None:
    """The 0-based column of a ``joker>N`` action, else None."""
    if not action.startswith("joker>"):
        return None
    try:
        return int(action.split(">", 1)[1]) - 1
    except ValueError:
        return None
