"""The Palast's screen lines as plain text (SPEC §13): a lobby row, an opponent's line above the
race table, a standings row, a ranking row, the league.  The screens only lay them out.

Every name and table word from the network goes through ``visible`` (no control character
reaches a terminal) and the screens show these strings with markup off.
"""

from __future__ import annotations

from spider_tui.i18n import N_, _
from spider_tui.safe_text import visible as _visible

#: Words the server sends that a person reads (a table's state, a player's state): said in the
#: language spoken; anything else from the network is shown as it came (made safe).
STATES = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished"), "solved": N_("solved"),
          "stuck": N_("stuck"), "gave up": N_("gave up"), "left": N_("left"), "out": N_("out"),
          "offline": N_("offline"), "done": N_("done")}


def state_word(text: object, width: int) -> str:
    """A state from the network in the language spoken (unknown words as they came, made safe)."""
    word = text if isinstance(text, str) else ""
    return name(_(STATES[word]) if word in STATES else word, width)


def _w(word: str, width: int) -> int:
    """A column's width: ``width``, or more when the word heading it is longer in this language."""
    return max(width, len(_(word)))


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


def lobby_header() -> str:
    return (f"{'#':>4}  {_('Host'):<16} {_('Suits'):>{_w('Suits', 5)}}  {_('Rules'):<18} "
            f"{_('Rounds'):>{_w('Rounds', 6)}}  {_('Seats'):>{_w('Seats', 5)}}  {_('State'):<8}")


LOBBY_HEADER = lobby_header()  # in English (the language at import); the screens ask lobby_header()


def lobby_row(table: dict) -> str:
    """One table of the lobby: id, host, suits, rules, rounds played/total, seats taken/max,
    state, and Training.  Fits 78 columns."""
    host = _("standard") if table.get("host") is None else name(table.get("host"), 16)
    players = table.get("players") or []
    rounds = f"{num(table.get('round'))}/{num(table.get('rounds'))}"
    seats = f"{len(players) if isinstance(players, list) else 0}/{num(table.get('seats'))}"
    state = state_word(table.get("state", ""), 8)
    extra = (" T" if table.get("training") else "") + (" P" if table.get("private") else "")
    return (f"{num(table.get('id')):>4}  {host:<16} {num(table.get('suits')):>{_w('Suits', 5)}}  {rules_word(table):<18} "
            f"{rounds:>{_w('Rounds', 6)}}  {seats:>{_w('Seats', 5)}}  {state:<8}{extra}")


def opponent_line(progress: dict, total: tuple[int, int] | None = None) -> str:
    """An opponent above the race table: name, score, runs, moves, state (solved in m:ss), and
    with ``total`` (running total, place) the table so far.  A house bot's line with its total
    fits 78 columns (an 80-column terminal's race screen)."""
    raw = progress.get("state", "playing")
    state = state_word(raw, 20)
    if raw == "solved":
        state = _("solved in {time}").format(time=clock(progress.get("seconds")))
    if progress.get("bot") is True:  # a house bot (SPEC §13: marked wherever names show)
        state += " · " + _("bot")
    so_far = "  " + _("Total {total:>5} {place}").format(total=total[0], place=ordinal(total[1])) if total is not None else ""
    return (f"{name(progress.get('player'), 16):<16} " + _("Score {score:>4}  Runs {runs}  Moves {moves:>3}").format(
        score=num(progress.get("score")), runs=num(progress.get("runs")), moves=num(progress.get("moves")))
        + f"{so_far}  {name(state, 20)}")


def standings_header() -> str:
    return (f"{_('Player'):<16} {_('Score'):>{_w('Score', 6)}} {_('Total'):>{_w('Total', 6)}}  "
            f"{_('Solved'):<{_w('Solved', 6)}} {_('Moves'):>{_w('Moves', 5)}} {_('Time'):>6}")


STANDINGS_HEADER = standings_header()  # in English; the screens ask standings_header()


def standings_row(row: dict) -> str:
    """A player's round: score, total, solved, moves, and the time to solve (``-`` if not solved)."""
    solved = bool(row.get("solved"))
    time_text = clock(row.get("seconds")) if solved else "-"
    notes = [_(w) for w, on in ((N_("bot"), row.get("bot") is True),
                                (N_("left"), row.get("state") == "left"), (N_("out"), row.get("state") == "out")) if on]
    return (f"{name(row.get('player'), 16):<16} {num(row.get('score')):>{_w('Score', 6)}} "
            f"{num(row.get('total')):>{_w('Total', 6)}}  "
            f"{_('yes') if solved else _('no'):<{_w('Solved', 6)}} {num(row.get('moves')):>{_w('Moves', 5)}} {time_text:>6}"
            + (f"  {' '.join(notes)}" if notes else ""))


def ranking_header() -> str:
    return f"{_('Place'):>5} {_('Player'):<16} {_('Total'):>7}"


RANKING_HEADER = ranking_header()  # in English; the screens ask ranking_header()


def ranking_row(row: dict) -> str:
    return f"{num(row.get('place')):>4}. {name(row.get('player'), 16):<16} {num(row.get('total')):>7}"


def league_header() -> str:
    return (f"{'#':>4}  {_('Name'):<16} {_('Rating'):>7} {_('Tables'):>7} {_('Wins'):>5} "
            f"{_('Experience'):>11}")


LEAGUE_HEADER = league_header()  # in English; the screens ask league_header()


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
LEAVE_RUNNING = N_("Leave this table? The rest of its rounds are forfeited; your total so far stands "
                   "and is ranked at the end.")  # shown through _()


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (German: 1., 2., 3.)."""
    from spider_tui.i18n import language

    if language() == "de":
        return f"{n}."
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
    return f"{_('You'):<16} " + _("Total {total:>5}  {place} of {players}").format(
        total=total, place=ordinal(place), players=players)


def final_words(ranking: list[dict], me: str) -> str:
    """The table's end, said to the player: a win, or the place."""
    mine = next((r for r in ranking if str(r.get("player")) == me), None)
    if mine is None:
        return ""
    place = num(mine.get("place"))
    shared = sum(1 for r in ranking if num(r.get("place")) == place) > 1
    if place == 1:
        return _("You won the table! (a shared first place)") if shared else _("You won the table!")
    return _("You placed {place} of {players}.").format(place=ordinal(place), players=len(ranking))

