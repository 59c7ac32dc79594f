"""The Palast's screen lines as plain text (SPEC §13): a lobby row, an opponent's line above the
race table, a standings row, a ranking row, the league.  The screens only lay them out.

Every name and table word from the network goes through ``visible`` (no control character
reaches a terminal) and the screens show these strings with markup off.
"""

from __future__ import annotations

from spider_tui.i18n import NP_, N_, _, pgettext
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
    """``m:ss``: whole seconds, rounded as everywhere else (``store.report.format_seconds``)."""
    ok = isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds == seconds \
        and abs(seconds) < 10**9
    s = max(0, int((round(float(seconds), 3) + 0.5) // 1)) if ok else 0  # type: ignore[arg-type]
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


def fit(text: object, width: int) -> str:
    """A name from the network in exactly ``width`` cells (a wide character counts two): cut with
    an ellipsis, padded with blanks."""
    from rich.cells import cell_len, set_cell_size

    s = name(text)
    if cell_len(s) > width:
        s = set_cell_size(s, width - 1) + "…"
    return set_cell_size(s, width)


def _narrow(word: str, width: int) -> str:
    """A column heading of the compact screens: its short word in the language spoken
    (``pgettext("narrow", …)``), never wider than ``width``."""
    return pgettext("narrow", word)[:width]


#: The compact screens' short column words (``_narrow``).
NARROW_WORDS = (NP_("narrow", "Host"), NP_("narrow", "Suits"), NP_("narrow", "Rules"), NP_("narrow", "Rnd"),
                NP_("narrow", "Seats"), NP_("narrow", "Player"), NP_("narrow", "Score"), NP_("narrow", "Total"),
                NP_("narrow", "Moves"), NP_("narrow", "Time"))


def lobby_header_narrow() -> str:
    """The lobby's heading at the compact table (under 80 columns, SPEC §17): 38 columns."""
    return (f"{'#':>3} {_narrow('Host', 9):<9} {_narrow('Suits', 5):<5} {_narrow('Rules', 8):<8} "
            f"{_narrow('Rnd', 3):>3} {_narrow('Seats', 5):>5}")


#: In English (the language at import); the screens ask lobby_header_narrow().
LOBBY_HEADER_NARROW = lobby_header_narrow()


def lobby_row_narrow(table: dict) -> str:
    """One table of the lobby in 38 columns (a phone's terminal): id, host, suits, rules, rounds
    played/total, seats taken/max, and Training (T) or private (P); the state when not waiting."""
    host = fit(_("standard") if table.get("host") is None else table.get("host"), 9)
    players = table.get("players") or []
    rounds = f"{num(table.get('round'))}/{num(table.get('rounds'))}"
    seats = f"{len(players) if isinstance(players, list) else 0}/{num(table.get('seats'))}"
    extra = (" T" if table.get("training") else "") + (" P" if table.get("private") else "")
    state = table.get("state", "")
    tail = "" if state == "waiting" else f" {state_word(state, 8)}"
    return (f"{num(table.get('id')):>3} {host} {num(table.get('suits')):<5} {fit(rules_word(table), 8)} "
            f"{rounds:>3} {seats:>5}{extra}{tail}")


def opponent_line(progress: dict, total: tuple[int, int] | None = None) -> str:
    """An opponent above the race table: name, score, runs, moves, state (solved in m:ss), and
    with ``total`` (running total, place) the table so far.  A house bot's line with its total
    fits 78 columns (an 80-column terminal's race screen)."""
    raw = progress.get("state", "playing")
    state = state_word(raw, 20)
    if raw == "solved":
        state = _("solved in {time}").format(time=clock(progress.get("seconds")))
    if raw == "stopped":  # a house bot that stopped when the people had finished
        state = _("stopped")
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


def standings_header_narrow() -> str:
    """The standings' heading at the compact table: 38 columns."""
    return (f"{_narrow('Player', 11):<11} {_narrow('Score', 5):>5} {_narrow('Total', 6):>6} "
            f"{_narrow('Moves', 5):>5} {_narrow('Time', 6):>6}")


STANDINGS_HEADER_NARROW = standings_header_narrow()  # in English; the screens ask standings_header_narrow()


def standings_row_narrow(row: dict) -> str:
    """A player's round in 38 columns: score, total, moves, and the time to solve (``-`` if not)."""
    solved = bool(row.get("solved"))
    time_text = clock(row.get("seconds")) if solved else "-"
    time_text = time_text if len(time_text) <= 6 else "99:59+"  # a time no round has: bounded
    notes = " ".join(_(w) for w, on in ((N_("bot"), row.get("bot") is True), (N_("left"), row.get("state") == "left"),
                                        (N_("out"), row.get("state") == "out")) if on)
    return (f"{fit(row.get('player'), 11)} {num(row.get('score')):>5} {num(row.get('total')):>6} "
            f"{num(row.get('moves')):>5} {time_text:>6}" + (f" {notes}" if notes else ""))


def standings_row(row: dict) -> str:
    """A player's round: score, total, solved, moves, and the time to solve (``-`` if not solved)."""
    solved = bool(row.get("solved"))
    time_text = clock(row.get("seconds")) if solved else "-"
    notes = [_(w) for w, on in ((N_("bot"), row.get("bot") is True),
                                (N_("left"), row.get("state") == "left"), (N_("out"), row.get("state") == "out"),
                                (N_("idle"), row.get("state") == "idle"),
                                (N_("stopped"), row.get("state") == "stopped")) if on]
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


#: Said under the standings when a house bot stopped (its row reads "stopped").
STOPPED_NOTE = N_("stopped: a house bot stopped when you finished (no real result in time).")
#: Said at a Training table, from its first round to its final screen.
TRAINING_NOTE = N_("Training: not counted in the league")


def me_line(total: int, place: int, players: int, training: bool = False) -> str:
    """The player's own running total and place above the race table (and, at a table that is
    Training for the league, that it is)."""
    return f"{_('You'):<16} " + _("Total {total:>5}  {place} of {players}").format(
        total=total, place=ordinal(place), players=players) + (f" · {_(TRAINING_NOTE)}" if training else "")


def final_words(ranking: list[dict], me: str, training: bool = False) -> str:
    """The table's end, said to the player: a win, or the place; at a Training table, that the
    league doesn't count it (no league result is claimed that isn't there)."""
    mine = next((r for r in ranking if str(r.get("player")) == me), None)
    if mine is None:
        return ""
    place = num(mine.get("place"))
    shared = sum(1 for r in ranking if num(r.get("place")) == place) > 1
    if place == 1:
        words = _("You won the table! (a shared first place)") if shared else _("You won the table!")
    else:
        words = _("You placed {place} of {players}.").format(place=ordinal(place), players=len(ranking))
    return words + (f" {_(TRAINING_NOTE)}." if training else "")

