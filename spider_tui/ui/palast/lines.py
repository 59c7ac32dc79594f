"""The Palast's screen lines as plain text (SPEC §13, §16): a lobby row, an opponent's line above
the race table (and a watched table's), a standings row, a ranking row, the league, a round's
records, the daily board.  The screens only lay them out.

The lines take the session's typed messages (``spider_tui.palast.messages``): their numbers were
checked and their strings made visible where the session read them.  A name is still cut to its
column and kept on one line here (``name``: a newline is written out), and the screens show these
strings with markup off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_tui.i18n import NP_, N_, _, ngettext, pgettext
from spider_tui.palast import messages as m
from spider_tui.safe_text import visible as _visible

if TYPE_CHECKING:
    from spider_tui.palast.client.session import PlayerRecord

#: Words the server sends that a person reads (a table's state, a player's state): said in the
#: language spoken; anything else from the network is shown as it came (made safe).
STATES = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished"), "solved": N_("solved"),
          "stuck": N_("stuck"), "gave up": N_("gave up"), "left": N_("left"), "out": N_("out"),
          "offline": N_("offline"), "done": N_("done")}


def state_word(word: str, width: int) -> str:
    """A state from the network in the language spoken (unknown words as they came, made safe)."""
    return name(_(STATES[word]) if word in STATES else word, width)


def _w(word: str, width: int) -> int:
    """A column's width: ``width``, or more when the word heading it is longer in this language."""
    return max(width, len(_(word)))


def name(text: str | None, width: int | None = None) -> str:
    """A name (from the network, a record) on one line, safe (a newline or a control character
    is written out) and cut to ``width``."""
    s = _visible(text or "", newlines=False)
    return s if width is None or len(s) <= width else s[: max(1, width - 1)] + "…"


def clock(seconds: float | None) -> str:
    """``m:ss``: whole seconds, rounded as everywhere else (``store.report.format_seconds``); a
    span no round has (none, or a billion seconds) reads 0:00."""
    s = max(0, int((round(seconds, 3) + 0.5) // 1)) if seconds is not None and abs(seconds) < 10**9 else 0
    return f"{s // 60}:{s % 60:02d}"


def rules_word(table: m.TableInfo) -> str:
    words = [w for w in (table.rules or "classic").split("+") if w not in ("practice", "scoring")]
    return name("+".join(words) or "classic", 18)


def lobby_header() -> str:
    return (f"{'#':>4}  {_('Host'):<16} {_('Suits'):>{_w('Suits', 5)}}  {_('Rules'):<18} "
            f"{_('Rounds'):>{_w('Rounds', 6)}}  {_('Seats'):>{_w('Seats', 5)}}  {_('State'):<8}")


LOBBY_HEADER = lobby_header()  # in English (the language at import); the screens ask lobby_header()


def _extra(table: m.TableInfo) -> str:
    """A lobby row's marks: Training (T), private (P)."""
    return (" T" if table.training else "") + (" P" if table.private else "")


def lobby_row(table: m.TableInfo) -> str:
    """One table of the lobby: id, host, suits, rules, rounds played/total, seats taken/max,
    state, and Training.  Fits 78 columns."""
    host = _("standard") if table.host is None else name(table.host, 16)
    rounds = f"{table.round}/{table.rounds}"
    seats = f"{len(table.players)}/{table.seats}"
    state = state_word(table.state, 8)
    return (f"{table.id:>4}  {host:<16} {table.suits:>{_w('Suits', 5)}}  {rules_word(table):<18} "
            f"{rounds:>{_w('Rounds', 6)}}  {seats:>{_w('Seats', 5)}}  {state:<8}{_extra(table)}")


def fit(text: str | None, width: int) -> str:
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


def lobby_row_narrow(table: m.TableInfo) -> str:
    """One table of the lobby in 38 columns (a phone's terminal): id, host, suits, rules, rounds
    played/total, seats taken/max, and Training (T) or private (P); the state when not waiting."""
    host = fit(_("standard") if table.host is None else table.host, 9)
    rounds = f"{table.round}/{table.rounds}"
    seats = f"{len(table.players)}/{table.seats}"
    tail = "" if table.state == "waiting" else f" {state_word(table.state, 8)}"
    return (f"{table.id:>3} {host} {table.suits:<5} {fit(rules_word(table), 8)} "
            f"{rounds:>3} {seats:>5}{_extra(table)}{tail}")


def opponent_line(progress: m.Progress | m.Line, total: tuple[int, int] | None = None) -> str:
    """An opponent above the race table: name, score, runs, moves, state (solved in m:ss), and
    with ``total`` (running total, place) the table so far.  A house bot's line with its total
    fits 78 columns (an 80-column terminal's race screen)."""
    raw = progress.state
    state = state_word(raw, 20)
    if raw == "solved":
        state = _("solved in {time}").format(time=clock(progress.seconds))
    if raw == "stopped":  # a house bot that stopped when the people had finished
        state = _("stopped")
    if progress.bot:  # a house bot (SPEC §13: marked wherever names show)
        state += " · " + _("bot")
    so_far = "  " + _("Total {total:>5} {place}").format(total=total[0], place=ordinal(total[1])) if total is not None else ""
    return (f"{name(progress.player, 16):<16} " + _("Score {score:>4}  Runs {runs}  Moves {moves:>3}").format(
        score=progress.score or 0, runs=progress.runs, moves=progress.moves)
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


def standings_row_narrow(row: m.Standing) -> str:
    """A player's round in 38 columns: score, total, moves, and the time to solve (``-`` if not)."""
    time_text = clock(row.seconds) if row.solved else "-"
    time_text = time_text if len(time_text) <= 6 else "99:59+"  # a time no round has: bounded
    notes = " ".join(_(w) for w, on in ((N_("bot"), row.bot), (N_("left"), row.state == "left"),
                                        (N_("out"), row.state == "out")) if on)
    return (f"{fit(row.player, 11)} {row.score:>5} {row.total:>6} "
            f"{row.moves:>5} {time_text:>6}" + (f" {notes}" if notes else ""))


def standings_row(row: m.Standing) -> str:
    """A player's round: score, total, solved, moves, and the time to solve (``-`` if not solved)."""
    time_text = clock(row.seconds) if row.solved else "-"
    notes = [_(w) for w, on in ((N_("bot"), row.bot),
                                (N_("left"), row.state == "left"), (N_("out"), row.state == "out"),
                                (N_("idle"), row.state == "idle"),
                                (N_("stopped"), row.state == "stopped")) if on]
    return (f"{name(row.player, 16):<16} {row.score:>{_w('Score', 6)}} "
            f"{row.total:>{_w('Total', 6)}}  "
            f"{_('yes') if row.solved else _('no'):<{_w('Solved', 6)}} {row.moves:>{_w('Moves', 5)}} {time_text:>6}"
            + (f"  {' '.join(notes)}" if notes else ""))


def ranking_header() -> str:
    return f"{_('Place'):>5} {_('Player'):<16} {_('Total'):>7}"


RANKING_HEADER = ranking_header()  # in English; the screens ask ranking_header()


def ranking_row(row: m.Ranked) -> str:
    return f"{row.place:>4}. {name(row.player, 16):<16} {row.total:>7}"


def league_header() -> str:
    return (f"{'#':>4}  {_('Name'):<16} {_('Rating'):>7} {_('Tables'):>7} {_('Wins'):>5} "
            f"{_('Experience'):>11}")


LEAGUE_HEADER = league_header()  # in English; the screens ask league_header()


def league_row(rank: int, row: m.LeagueRow) -> str:
    """One league line; the row's own ``place`` (the asker's row after the top N) wins over
    ``rank``, when it is a place (1 and on; a billion and on is none)."""
    if row.place is not None and 0 < row.place < 10**9:
        rank = row.place
    rating_text = f"{float(row.rating):.1f}" if abs(row.rating) < 1e9 else "-"  # a rating no league has: none
    return (f"{rank:>4}  {name(row.name, 16):<16} {rating_text:>7} {row.tables:>7} "
            f"{row.wins:>5} {row.experience:>11}")


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
    before = dict(before or {})
    totals = {p: before.get(p, 0) + scores.get(p, 0) for p in {**before, **scores}}
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


def final_words(ranking: list[m.Ranked], me: str, training: bool = False) -> str:
    """The table's end, said to the player: a win, or the place; at a Training table, that the
    league doesn't count it (no league result is claimed that isn't there)."""
    mine = next((r for r in ranking if r.player == me), None)
    if mine is None:
        return ""
    place = mine.place
    shared = sum(1 for r in ranking if r.place == place) > 1
    if place == 1:
        words = _("You won the table! (a shared first place)") if shared else _("You won the table!")
    else:
        words = _("You placed {place} of {players}.").format(place=ordinal(place), players=len(ranking))
    return words + (f" {_(TRAINING_NOTE)}." if training else "")



# ---------------------------------------------------------------------------- SPEC §16
def records_header() -> str:
    """The heading of a table's records (the standings' "watch")."""
    return (f"{_('Round'):>{_w('Round', 5)}}  {_('Player'):<16} {_('Result'):<11} {_('Score'):>{_w('Score', 6)}} "
            f"{_('Moves'):>{_w('Moves', 5)}} {_('Time'):>6}")


def record_row(rec: PlayerRecord, index: int = 0) -> str:
    """One player's record of a round: who, the result, score, moves and time; a record that
    can't be replayed says so (Enter then shows why, in one line)."""
    from spider_tui.records import minutes, result_word

    head = f"{rec.round:>{_w('Round', 5)}}  "
    r = rec.record
    if r is None:
        return head + _("record {n}: can't be replayed").format(n=index + 1)
    score = "-" if r.score is None else str(r.score)
    return (head + f"{name(r.player, 16):<16} {name(result_word(r.result), 11):<11} {score:>{_w('Score', 6)}} "
            f"{r.moves:>{_w('Moves', 5)}} {minutes(r.seconds):>6}")


def commitment_line(board: m.DailyBoard) -> str:
    """A daily board's commitment (the SHA-256 of its deal code), shown all day; its deal once
    told (after the day)."""
    if board.deal:
        return "  " + _("deal {deal}").format(deal=name(board.deal, 40))
    return "  " + _("commitment {hex}").format(hex=name(board.commitment or "-", 64))


def daily_head(board: m.DailyBoard) -> str:
    """A daily board's first line: the suit count, the tries, and the player's own try."""
    suits = ngettext("{n} suit", "{n} suits", board.suits).format(n=board.suits)
    tries = ngettext("{n} try", "{n} tries", board.total).format(n=board.total)
    if board.playing:
        tries += " · " + _("{n} playing").format(n=board.playing)
    me = board.me
    mine = (_("your try: {score} points, place {place}").format(score=me.score, place=me.place) if me is not None
            else _("your try is still to play"))
    return f"{suits} · {tries} · {mine}"


def daily_entry(e: m.DailyEntry) -> str:
    """One finished try on a daily board: place, player, points, moves, time, how it ended."""
    state = state_word(e.state, 12) + (" · " + _("bot") if e.bot else "")
    return f"  {e.place:>3}. {name(e.player, 16):<16} {e.score:>5} {e.moves:>4} {clock(e.seconds):>6}  {state}"
