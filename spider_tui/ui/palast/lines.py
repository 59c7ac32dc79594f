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


def num(value: object) -> int:
    """A whole number from the network for a column (0 for anything that isn't a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or abs(value) > 10**12:
        return 0
    return int(value)


def clock(seconds: object) -> str:
    """``m:ss``."""
    s = max(0, num(seconds + 0.5)) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0
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
    rounds = f"{num(table.get('round'))}/{num(table.get('rounds'))}"
    seats = f"{len(players) if isinstance(players, list) else 0}/{num(table.get('seats'))}"
    state = name(table.get("state", ""), 8)
    extra = (" T" if table.get("training") else "") + (" P" if table.get("private") else "")
    return (f"{num(table.get('id')):>4}  {host:<16} {num(table.get('suits')):>5}  {rules_word(table):<18} "
            f"{rounds:>6}  {seats:>5}  {state:<8}{extra}")


def opponent_line(progress: dict, total: tuple[int, int] | None = None) -> str:
    """An opponent above the race table: name, score, runs, moves, state (solved in m:ss), and
    with ``total`` (running total, place) the table so far.  A house bot's line with its total
    fits 78 columns (an 80-column terminal's race screen)."""
    state = name(progress.get("state", "playing"), 20)
    if state == "solved":
        state = f"solved in {clock(progress.get('seconds'))}"
    if progress.get("bot") is True:  # a house bot (SPEC §13: marked wherever names show)
        state += " · bot"
    so_far = f"  Total {total[0]:>5} {ordinal(total[1])}" if total is not None else ""
    return (f"{name(progress.get('player'), 16):<16} Score {num(progress.get('score')):>4}  "
            f"Runs {num(progress.get('runs'))}  Moves {num(progress.get('moves')):>3}{so_far}  {name(state, 20)}")


STANDINGS_HEADER = f"{'Player':<16} {'Score':>6} {'Total':>6}  {'Solved':<6} {'Moves':>5} {'Time':>6}"


def standings_row(row: dict) -> str:
    """A player's round: score, total, solved, moves, and the time to solve (``-`` if not solved)."""
    solved = bool(row.get("solved"))
    time_text = clock(row.get("seconds")) if solved else "-"
    notes = [w for w, on in (("bot", row.get("bot") is True),
                             ("left", row.get("state") == "left"), ("out", row.get("state") == "out")) if on]
    return (f"{name(row.get('player'), 16):<16} {num(row.get('score')):>6} {num(row.get('total')):>6}  "
            f"{'yes' if solved else 'no':<6} {num(row.get('moves')):>5} {time_text:>6}"
            + (f"  {' '.join(notes)}" if notes else ""))


RANKING_HEADER = f"{'Place':>5} {'Player':<16} {'Total':>7}"


def ranking_row(row: dict) -> str:
    return f"{num(row.get('place')):>4}. {name(row.get('player'), 16):<16} {num(row.get('total')):>7}"


LEAGUE_HEADER = f"{'#':>4}  {'Name':<16} {'Rating':>7} {'Tables':>7} {'Wins':>5} {'Experience':>11}"


def league_row(rank: int, row: dict) -> str:
    """One league line; the row's own ``place`` (the asker's row after the top N) wins over ``rank``."""
    place = row.get("place")
    if isinstance(place, int) and not isinstance(place, bool) and 0 < place < 10**9:
        rank = place
    rating = row.get("rating")
    ok = isinstance(rating, (int, float)) and not isinstance(rating, bool) and abs(rating) < 1e9
    rating_text = f"{float(rating):.1f}" if ok and rating is not None else "-"
    return (f"{rank:>4}  {name(row.get('name'), 16):<16} {rating_text:>7} {num(row.get('tables')):>7} "
            f"{num(row.get('wins')):>5} {num(row.get('experience')):>11}")


#: The question before leaving a table in play (the race's and the standings' ``x``).
LEAVE_RUNNING = ("Leave this table? The rest of its rounds are forfeited; your total so far stands "
                 "and is ranked at the end.")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def race_totals(before: dict[str, int] | None, scores: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Each player's running total during a round (the total after the rounds before, ``before``,
    plus this round's score so far) and place by it (equal totals share a place): {name: (total,
    place)}.  A player with a total before and no score now (one who left) keeps that total."""
    before = {str(p): num(t) for p, t in (before or {}).items()}
    totals = {p: before.get(p, 0) + num(scores.get(p, 0)) for p in {**before, **scores}}
    ranked = sorted(totals.values(), reverse=True)
    return {p: (t, ranked.index(t) + 1) for p, t in totals.items()}


def me_line(total: int, place: int, players: int) -> str:
    """The player's own running total and place above the race table."""
    return f"{'You':<16} Total {total:>5}  {ordinal(place)} of {players}"


def final_words(ranking: list[dict], me: str) -> str:
    """The table's end, said to the player: a win, or the place."""
    mine = next((r for r in ranking if str(r.get("player")) == me), None)
    if mine is None:
        return ""
    place = num(mine.get("place"))
    shared = sum(1 for r in ranking if num(r.get("place")) == place) > 1
    if place == 1:
        return "You won the table!" + (" (a shared first place)" if shared else "")
    return f"You placed {ordinal(place)} of {len(ranking)}."

