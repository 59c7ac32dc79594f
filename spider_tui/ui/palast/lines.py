"""The Palast's screen lines as plain text (SPEC §13): a lobby row, an opponent's line above the
race table, a standings row, a ranking row, the league.  The screens only lay them out.

Every name and table word from the network goes through ``visible`` (no control character
reaches a terminal) and the screens show these strings with markup off.
"""

from __future__ import annotations

from spider_tui.safe_text import visible as _visible


def name(text: object, width: int | None = None) -> str:
    """A name from the network, made safe for one line (and cut to ``width``)."""
    s = _visible(text if text is not None else "", newlines=False)
    return s if width is None or len(s) <= width else s[: max(1, width - 1)] + "…"


def clock(seconds: float | None) -> str:
    """``m:ss``."""
    s = max(0, int((seconds or 0) + 0.5))
    return f"{s // 60}:{s % 60:02d}"


def rules_word(table: dict) -> str:
    rules = str(table.get("rules") or "classic")
    words = [w for w in rules.split("+") if w not in ("practice", "scoring")]
    return name("+".join(words) or "classic", 18)


LOBBY_HEADER = f"{'#':>4}  {'Host':<16} {'Suits':>5}  {'Rules':<18} {'Rounds':>6}  {'Seats':>5}  {'State':<8}"


def lobby_row(table: dict) -> str:
    """One table of the lobby: id, host, suits, rules, rounds played/total, seats taken/max,
    state, and Training.  Fits 78 columns."""
    host = "standard" if table.get("host") is None else name(table.get("host"), 16)
    players = table.get("players") or []
    rounds = f"{table.get('round', 0)}/{table.get('rounds', '?')}"
    seats = f"{len(players)}/{table.get('seats', '?')}"
    state = str(table.get("state", ""))
    extra = (" T" if table.get("training") else "") + (" P" if table.get("private") else "")
    return (f"{int(table.get('id', 0)):>4}  {host:<16} {table.get('suits', '?'):>5}  {rules_word(table):<18} "
            f"{rounds:>6}  {seats:>5}  {state:<8}{extra}")


def opponent_line(progress: dict) -> str:
    """An opponent above the race table: name, score, runs, moves, state (solved in m:ss)."""
    state = str(progress.get("state", "playing"))
    if state == "solved":
        state = f"solved in {clock(progress.get('seconds'))}"
    return (f"{name(progress.get('player'), 16):<16} Score {int(progress.get('score') or 0):>5}  "
            f"Runs {int(progress.get('runs') or 0)}  Moves {int(progress.get('moves') or 0):>3}  {name(state, 20)}")


STANDINGS_HEADER = f"{'Player':<16} {'Score':>6} {'Total':>6}  {'Solved':<6} {'Moves':>5} {'Time':>6}"


def standings_row(row: dict) -> str:
    """A player's round: score, total, solved, moves, and the time to solve (``-`` if not solved)."""
    solved = bool(row.get("solved"))
    time_text = clock(row.get("seconds")) if solved else "-"
    return (f"{name(row.get('player'), 16):<16} {int(row.get('score') or 0):>6} {int(row.get('total') or 0):>6}  "
            f"{'yes' if solved else 'no':<6} {int(row.get('moves') or 0):>5} {time_text:>6}")


RANKING_HEADER = f"{'Place':>5} {'Player':<16} {'Total':>7}"


def ranking_row(row: dict) -> str:
    return f"{int(row.get('place') or 0):>4}. {name(row.get('player'), 16):<16} {int(row.get('total') or 0):>7}"


LEAGUE_HEADER = f"{'#':>4}  {'Name':<16} {'Rating':>7} {'Tables':>7} {'Wins':>5} {'Experience':>11}"


def league_row(rank: int, row: dict) -> str:
    rating = row.get("rating")
    rating_text = f"{float(rating):.1f}" if isinstance(rating, (int, float)) else "-"
    return (f"{rank:>4}  {name(row.get('name'), 16):<16} {rating_text:>7} {int(row.get('tables') or 0):>7} "
            f"{int(row.get('wins') or 0):>5} {int(row.get('experience') or 0):>11}")
