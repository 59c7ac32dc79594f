"""The league (SPEC §13): OpenSkill (Plackett–Luce) ratings from finished tables.

Every finished table that is not Training and had at least two players counts: its final
ranking (equal totals share a place) updates each player's rating; tables played and tables won
are counted.  Experience is every point ever scored, Training included (the store adds it at
each round's end).  The rating shown is OpenSkill's ordinal, ``mu - 3·sigma`` (0 for a new
player), which rises as a player's results become certain.

Only players who really played are rated (issue 29, SPEC §13): each must have made at least
``MIN_MOVES`` moves at the table; one who gave up with fewer counts as not having played, and a
0-point give-up never counts as a win or a tie for anyone (``players_who_played``).  So puppets
that sit down and give up at once neither pump a booster's rating nor rank themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
MIN_MOVES = 10  # moves at a table before a player is rated for it (SPEC §13)


def players_who_played(totals: Sequence[tuple[int, int]], moves: dict[int, int],
                       gave_up: set[int]) -> list[tuple[int, int]]:
    """The ``(player, total)`` pairs the league rates a table by: players with at least
    ``MIN_MOVES`` moves there, less any who gave up and ended with 0 points or less (a 0-point
    give-up is never a win or a tie).  Order kept."""
    return [(pid, total) for pid, total in totals
            if moves.get(pid, 0) >= MIN_MOVES and not (pid in gave_up and total <= 0)]


def rate(teams: Sequence[tuple[int, float | None, float | None, int]]) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` per player from ``(player_id, mu, sigma, place)`` (None = new player)."""
    ratings = [
        [_MODEL.rating() if mu is None or sigma is None else _MODEL.rating(mu=mu, sigma=sigma)]
        for _pid, mu, sigma, _place in teams
    ]
    ranks: list[float] = [place for *_, place in teams]
    new = _MODEL.rate(ratings, ranks=ranks)
    return {pid: (team[0].mu, team[0].sigma) for (pid, *_), team in zip(teams, new)}


def ordinal(mu: float | None, sigma: float | None) -> float:
    """The rating shown: ``mu - 3·sigma`` (0.0 before a player's first counted table)."""
    if mu is None or sigma is None:
        return 0.0
    return round(mu - 3 * sigma, 2)


def places(totals: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(player, total, place)`` best first from ``(player, total)``; equal totals share a place
    (1, 1, 3 …).  Players keep their given order within a tie."""
    ordered = sorted(totals, key=lambda pt: -pt[1])
    out: list[tuple[int, int, int]] = []
    for i, (pid, total) in enumerate(ordered):
        place = out[-1][2] if out and out[-1][1] == total else i + 1
        out.append((pid, total, place))
    return out
