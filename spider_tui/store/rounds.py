"""Unfinished rounds kept for Continue, one per instance that played them (SPEC §7, §8).

Two instances at once (two SSH logins) each keep their own unfinished round, under
``[rounds.<token>]``: a round is never overwritten or counted by another instance.  A round
ends, and counts as played, only where it ends: in its own instance (won, New, Retry, give up)
or when the player starts a new round from the start screen over it and confirms.  Continue
offers the most recently saved round.  An older save's single ``[round]`` is read as the round
of token ``"legacy"`` and moved under ``[rounds]`` at the next write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spider_tui.store.stats import RoundState, load_round, save_round

LEGACY = "legacy"


def _tables(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if isinstance(data.get("round"), dict):
        out[LEGACY] = data["round"]
    rounds = data.get("rounds")
    if isinstance(rounds, dict):
        out.update({str(k): v for k, v in rounds.items() if isinstance(v, dict)})
    return out


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    rounds = data.get("rounds")
    if not isinstance(rounds, dict):
        rounds = data["rounds"] = {}
    old = data.pop("round", None)
    if isinstance(old, dict):
        rounds.setdefault(LEGACY, old)
    return rounds


def put_round(data: dict[str, Any], token: str, state: RoundState, saved_at: float) -> dict[str, Any]:
    """Keep ``state`` as the unfinished round of ``token`` (saved at ``saved_at``, epoch seconds)."""
    rounds = _migrate(data)
    table = save_round({}, state)["round"]
    table["saved_at"] = round(float(saved_at), 3)
    rounds[token] = table
    return data


def get_round(data: dict[str, Any], token: str) -> RoundState | None:
    table = _tables(data).get(token)
    return None if table is None else load_round({"round": table})


def drop_round(data: dict[str, Any], token: str) -> dict[str, Any]:
    """Forget the unfinished round of ``token`` (it ended)."""
    rounds = _migrate(data)
    rounds.pop(token, None)
    if not rounds:
        data.pop("rounds", None)
    return data


def latest_round(data: dict[str, Any]) -> tuple[str, RoundState] | None:
    """(token, round) of the most recently saved readable unfinished round, or None."""
    best = None
    for token, table in _tables(data).items():
        state = load_round({"round": table})
        if state is None:
            continue
        when = table.get("saved_at", 0.0)
        when = float(when) if isinstance(when, (int, float)) and not isinstance(when, bool) else 0.0
        if best is None or when > best[0]:
            best = (when, token, state)
    return None if best is None else (best[1], best[2])


class RoundMark:
    """What one instance knows of its round's place in the file: ``on_disk`` once a write that
    kept it (or Continue, which read it there) succeeded.  A round that was on disk and is gone
    now was ended by another instance (two logins): it is neither saved again nor counted again."""

    def __init__(self, token: str, on_disk: bool = False) -> None:
        self.token = token
        self.on_disk = on_disk

    def ended_elsewhere(self, data: dict[str, Any]) -> bool:
        return self.on_disk and self.token not in _tables(data)


def keep_round(data: dict[str, Any], mark: RoundMark, state: RoundState, saved_at: float) -> bool:
    """:func:`put_round`, unless another instance ended this round meanwhile; True when kept."""
    if mark.ended_elsewhere(data):
        return False
    put_round(data, mark.token, state, saved_at)
    return True


def end_round_once(data: dict[str, Any], mark: RoundMark, record: Callable[[dict[str, Any]], object]) -> bool:
    """The round ended here: ``record(data)`` and forget its saved copy, once per round identity.

    Nothing is recorded when another instance already ended it (continued in two logins and won in
    both, or ended by New on another start screen). True when recorded here.
    """
    if mark.ended_elsewhere(data):
        return False
    record(data)
    drop_round(data, mark.token)
    return True
