"""A seat's answers to ``play`` by ``id`` (SPEC §13: a ``play`` whose ``id`` the server already
answered for that player in that round is answered again, the same, and not played twice).

Only the last answer is kept whole; for every other ``id`` of the round the seat keeps the
action's ``seq`` (ints only: a dict the garbage collector never looks into), and a resend of one
of those is answered by replaying the seat's stored actions up to it, which gives the same answer
(the game is deterministic).  Keeping every answer whole cost about a kilobyte and five tracked
objects an action, for the whole round: 1,000 players in a 20-minute round held ~1 GB, and the
collector's pauses grew with them (issue 32).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_tui.engine import Game, Played
from spider_tui.engine.cards import card_text
from spider_tui.palast import messages as m
from spider_tui.palast.protocol import Refusal, play_rules

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.table import LiveTable, Seat

__all__ = ["ANSWERS_KEPT", "Answers", "played_answer"]

#: Play ids remembered per seat and round (SPEC §13: an id is idempotent).
ANSWERS_KEPT = 1024


def played_answer(text: str, g: Game, state: str, played: Played | None) -> m.Played:
    """The ``played`` answer to an action ``text`` that left ``g`` so (``played``: what the move
    did, None for undo and give up)."""
    return m.Played(
        move=text, position=g.view(), score=g.score, moves=g.moves, state=state,
        turned_up=[m.TurnedUp(column=c + 1, card=card_text(card)) for c, card in played.turned_up] if played else [],
        dealt=[card_text(c) for c in played.dealt] if played else [],
        completed=[c + 1 for c, _suit in played.completed] if played else [],  # the wire names columns 1-10
    )


class Answers:
    """One seat's answered play ids in one round."""

    __slots__ = ("round", "seqs", "last")

    def __init__(self) -> None:
        self.round = 0
        self.seqs: dict[int, int] = {}  # play id -> the seq of the action it was answered for
        self.last: tuple[int, m.Played] | None = None  # the last answer, whole

    def keep(self, round: int, msg_id: int, seq: int, answer: m.Played) -> None:
        if self.round != round:
            self.round, self.seqs = round, {}
        if len(self.seqs) >= ANSWERS_KEPT and msg_id not in self.seqs:
            self.seqs.pop(next(iter(self.seqs)))
        self.seqs[msg_id] = seq
        self.last = (msg_id, answer)

    async def again(self, t: LiveTable, s: Seat, msg_id: int) -> m.Played | None:
        """The answer already given to ``msg_id`` in the table's round, or None when there is none."""
        if self.round != t.row.round or msg_id not in self.seqs:
            return None
        if self.last is not None and self.last[0] == msg_id:
            return self.last[1]
        try:
            return await replayed(t, s, self.seqs[msg_id])
        except Exception:
            raise Refusal("The server can't reach its database just now; nothing changed. Try again.",
                          code=m.Code.TRY_AGAIN) from None


async def replayed(t: LiveTable, s: Seat, seq: int) -> m.Played:
    """The answer to the seat's action ``seq`` of this round, from its stored actions."""
    from spider_tui.palast.server.table import Seat, apply_action

    actions = [a for a in await t.lobby.store.actions(t.id, t.row.round) if a.player_id == s.player_id and a.seq <= seq]
    assert t.row.deal is not None and actions and actions[-1].seq == seq
    g = Game.new(t.row.deal, suits=t.row.suits, rules=play_rules(t.row.rules))
    for a in actions[:-1]:
        apply_action(g, a.move)
    text = actions[-1].move
    played = None
    if text == "undo":
        g.undo()
    elif text == "give up":
        g.give_up()
    else:
        played = g.play(text)
    return played_answer(text, g, Seat(s.player_id, s.name, game=g, bot=s.bot).state, played)
