"""``spider league --daily [--suits K] [--json]`` (SPEC §16): the Palast's daily board, asked
for before ``hello`` (read-only, like the league): per suit count the day's commitment, its
deal once the day is over, and the tries ranked by points then time."""

from __future__ import annotations

import asyncio
import json
import sys

from spider_tui.i18n import _, ngettext
from spider_tui.palast import messages as m
from spider_tui.safe_text import visible

__all__ = ["fetch_daily", "print_daily", "daily_json"]


async def fetch_daily(url: str, suits: int | None) -> m.Daily:
    """The server's ``daily`` answer (one board, or all three)."""
    from spider_tui.palast.client.client import PalastClient

    c = await PalastClient.connect(url)
    try:
        answer = await c.ask(m.AskDaily(suits=suits))
    finally:
        await c.close()
    if not isinstance(answer.message, m.Daily):
        raise ConnectionError(visible(answer.get("reason", ""), newlines=False) or answer.get("type"))
    return answer.message


def daily_json(daily: m.Daily) -> dict:
    """What ``--json`` prints: ``{"day", "ends_at", "boards": [{suits, commitment, deal, entries:
    [{player, score, moves, seconds, state, place}], total}]}``."""
    return {"day": daily.day, "ends_at": daily.ends_at,
            "boards": [{"suits": b.suits, "commitment": b.commitment, "deal": b.deal, "total": b.total,
                        "entries": [{"player": e.player, "score": e.score, "moves": e.moves, "seconds": e.seconds,
                                     "state": e.state, "place": e.place} for e in b.entries]} for b in daily.boards]}


def _time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    mins, secs = divmod(int(round(seconds)), 60)
    return f"{mins}:{secs:02d}"


def print_daily(server: str, suits: int | None, as_json: bool) -> int:
    try:
        daily = asyncio.run(fetch_daily(server, suits))
    except Exception as problem:  # noqa: BLE001 - one line, no traceback
        print(_("spider league: can't get the daily board from {server}: {reason}").format(
            server=server, reason=visible(str(problem), newlines=False) or type(problem).__name__), file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(daily_json(daily)))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    for b in daily.boards:
        title = ngettext("Daily board, {n} suit, {day}", "Daily board, {n} suits, {day}", b.suits).format(
            n=b.suits, day=visible(daily.day, newlines=False))
        console.print(Text(title, style="bold"))
        print(_("commitment (SHA-256 of the deal code): {c}").format(c=visible(b.commitment or "-", newlines=False)))
        if b.deal:
            print(_("deal: {deal} (the day is over)").format(deal=visible(b.deal, newlines=False)))
        else:
            print(_("The deal is told when the day is over."))
        if not b.entries:
            print(_("No one has finished a try yet."))
        else:
            table = Table()
            for col, just in (("#", "right"), (_("Player"), "left"), (_("Points"), "right"), (_("Time"), "right"),
                              (_("Moves"), "right"), (_("State"), "left")):
                table.add_column(col, justify=just)  # type: ignore[arg-type]
            for e in b.entries:
                table.add_row(str(e.place), Text(visible(e.player, newlines=False)), str(e.score), _time(e.seconds),
                              str(e.moves), Text(visible(e.state, newlines=False)))
            console.print(table)
            if b.total > len(b.entries):
                print(_("The best {shown} of {total} tries.").format(shown=len(b.entries), total=b.total))
        print()
    return 0
