"""Round records (SPEC §16): the record text's writer and parser, and its replay on the engine.

A record is a small UTF-8 text: header lines ``key: value``, then one action a line, ``MS MOVE``
(the milliseconds of play time since the round began, then the §3 move text: ``3>7:2``, ``deal``,
``joker>4`` or ``undo``).  ``docs/records.md`` defines it byte for byte; this module is the one
place that reads and writes it.  No Textual, no files, no clock: ``store/records.py`` keeps the
files.

>>> r = Record(deal=1234, suits=2, rules="classic", date="2026-12-01T21:30:00Z", player="ann",
...            result="gave up", moves=1, seconds=12.5, actions=((1200, "deal"),))
>>> text = write(r)
>>> print(text, end="")
game: spider
deal: 1234
suits: 2
rules: classic
date: 2026-12-01T21:30:00Z
player: ann
result: gave up
moves: 1
seconds: 12.500
1200 deal
>>> read(text) == r
True
>>> replay(r).moves
1
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from spider_tui.i18n import _
from spider_tui.engine import Deal, Game, IllegalMove, Move, PositionError, parse_deal, rules_named
from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.engine_words import said

__all__ = [
    "HEADERS", "MAX_ACTIONS", "MAX_BYTES", "RESULTS", "Action", "Record", "RecordError",
    "check", "positions", "read", "replay", "share_line", "utc_now", "write",
]

#: The results a record names (SPEC §16).
RESULTS = ("won", "gave up", "stuck", "left", "out", "time")
#: Header keys in the order a writer writes them; ``score``, ``palast`` and ``table`` are optional.
HEADERS = ("game", "deal", "suits", "rules", "date", "player", "result", "moves", "seconds",
           "score", "palast", "table")
REQUIRED = ("game", "deal", "suits", "rules", "date", "player", "result", "moves", "seconds")
#: A reader refuses a longer file (a round of 2 000 actions is about 20 KB).
MAX_BYTES = 1 << 20
#: A reader refuses more actions than this.
MAX_ACTIONS = 20_000
MAX_FIELD = 80  # characters in ``player``, ``palast``, ``table``, ``rules``
UNDO = "undo"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\Z")
_INT = re.compile(r"(0|[1-9][0-9]{0,11})\Z")
_SCORE = re.compile(r"-?(0|[1-9][0-9]{0,11})\Z")
_SECONDS = re.compile(r"(0|[1-9][0-9]{0,9})\.[0-9]{3}\Z")
_KEY = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")

Action = tuple[int, str]  # (milliseconds since the round began, move text)


class RecordError(ValueError):
    """A text that is not a record, or a record the engine does not replay to its result.

    ``line`` is the 1-based line that fails (0 when the whole file does), ``reason`` says why;
    ``str()`` gives one line: ``line 12: 3>9: ...``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Record:
    """One round as a record.  ``seconds`` is the play time (kept to the millisecond)."""

    deal: Deal
    suits: int
    rules: str
    date: str
    player: str
    result: str
    moves: int
    seconds: float
    actions: tuple[Action, ...] = ()
    score: int | None = None
    palast: str | None = None
    table: str | None = None
    #: Header lines a newer writer added that this reader doesn't know: kept, written back.
    extra: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def won(self) -> bool:
        return self.result == "won"

    def at(self, step: int) -> "Record":
        """The record cut after ``step`` actions (for "Play from here" and the review)."""
        return replace(self, actions=self.actions[:step])


def utc_now(now: datetime | None = None) -> str:
    """A ``date`` header value: UTC, ISO 8601, to the second (``2026-12-01T21:30:00Z``)."""
    now = now or datetime.now(timezone.utc)
    return now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _one_line(key: str, value: str) -> str:
    if not value or value != value.strip() or not value.isprintable() or len(value) > MAX_FIELD:
        raise ValueError(f"{key}: {value!r} is not a one-line printable value of 1..{MAX_FIELD} characters")
    return value


def write(record: Record) -> str:
    """The record's text, exactly as ``docs/records.md`` defines it (LF line endings, headers in
    :data:`HEADERS` order, optional ones left out when ``None``, then the actions)."""
    if record.result not in RESULTS:
        raise ValueError(f"result: {record.result!r} is not one of {', '.join(RESULTS)}")
    values: dict[str, str] = {
        "game": "spider",
        "deal": str(record.deal),
        "suits": str(record.suits),
        "rules": _one_line("rules", record.rules),
        "date": record.date,
        "player": _one_line("player", record.player),
        "result": record.result,
        "moves": str(record.moves),
        "seconds": f"{max(0.0, record.seconds):.3f}",
    }
    if record.score is not None:
        values["score"] = str(record.score)
    if record.palast is not None:
        values["palast"] = _one_line("palast", record.palast)
    if record.table is not None:
        values["table"] = _one_line("table", record.table)
    lines = [f"{key}: {values[key]}" for key in HEADERS if key in values]
    lines += [f"{key}: {_one_line(key, value)}" for key, value in record.extra if key not in values]
    for ms, move in record.actions:
        if ms < 0 or not move or move != move.strip() or not move.isprintable():
            raise ValueError(f"not an action: {ms!r} {move!r}")
        lines.append(f"{int(ms)} {move}")
    return "\n".join(lines) + "\n"


def read(text: str | bytes) -> Record:
    """Parse a record's text (no replay: see :func:`check`).  Raises :class:`RecordError` with
    the first line that fails."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise RecordError(0, _("longer than {v0} KB: not a record").format(v0=MAX_BYTES // 1024))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(0, _("not UTF-8 text (byte {v0})").format(v0=e.start)) from None
    if len(text) > MAX_BYTES:
        raise RecordError(0, _("longer than {v0} KB: not a record").format(v0=MAX_BYTES // 1024))
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headers: dict[str, tuple[int, str]] = {}
    extra: list[tuple[str, str]] = []
    actions: list[Action] = []
    last_ms = 0
    for number, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]  # CRLF is read like LF
        if not line.strip():
            continue
        if not line.isprintable():
            raise RecordError(number, _("a control character"))
        if not actions and not line[0].isdigit():
            key, sep, value = line.partition(": ")
            if not sep or not _KEY.match(key):
                if number == 1:
                    raise RecordError(1, _("not a record: it starts with 'game: spider'"))
                raise RecordError(number, _("not a header line (key: value) or an action line (MS MOVE)"))
            if key in headers or key in (k for k, _v in extra):
                raise RecordError(number, _("a second {v0!r} header").format(v0=key))
            if number == 1 and key != "game":
                raise RecordError(1, _("not a record: it starts with 'game: spider'"))
            if key == "game" and value != "spider":
                raise RecordError(number, _("game: {v0!r}: only spider records are read").format(v0=value))
            if key in HEADERS:
                headers[key] = (number, value)
            else:
                extra.append((key, value))  # a header a newer writer added: kept
            continue
        if not headers:
            raise RecordError(number, _("not a record: it starts with 'game: spider'"))
        ms_text, sep, move = line.partition(" ")
        if not sep or not _INT.match(ms_text) or not move or move != move.strip():
            raise RecordError(number, _("not an action line (MS MOVE, e.g. 12840 3>7)"))
        ms = int(ms_text)
        if ms < last_ms:
            raise RecordError(number, _("time goes back ({v0} ms after {v1} ms)").format(v0=ms, v1=last_ms))
        if move != UNDO:
            try:
                Move.parse(move)
            except IllegalMove as e:
                raise RecordError(number, said(e.reason)) from None
        if len(actions) >= MAX_ACTIONS:
            raise RecordError(number, _("more than {v0} actions").format(v0=MAX_ACTIONS))
        last_ms = ms
        actions.append((ms, move))
    if not headers:
        raise RecordError(0, _("empty: not a record"))
    return _from_headers(headers, tuple(extra), tuple(actions), len(lines))


def _from_headers(headers: dict[str, tuple[int, str]], extra: tuple[tuple[str, str], ...],
                  actions: tuple[Action, ...], end: int) -> Record:
    for key in REQUIRED:
        if key not in headers:
            raise RecordError(end if actions else max(n for n, _value in headers.values()), _("no {v0!r} header").format(v0=key))

    def bad(key: str, why: str) -> RecordError:
        return RecordError(headers[key][0], _("{v0}: {v1}").format(v0=key, v1=why))

    def value(key: str) -> str:
        return headers[key][1]

    if value("game") != "spider":
        raise bad("game", _("{v0!r}: only spider records are read").format(v0=value('game')))
    try:
        deal = parse_deal(value("deal"))
    except ValueError as e:
        raise bad("deal", str(e)) from None
    if value("suits") not in tuple(str(k) for k in SUIT_COUNTS):
        raise bad("suits", _("1, 2 or 4"))
    try:
        rules = rules_named(value("rules")).name
    except (KeyError, ValueError) as e:
        raise bad("rules", str(e.args[0] if e.args else e)) from None
    date = value("date")
    try:
        if not _DATE.match(date):
            raise ValueError
        datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise bad("date", _("a UTC time like 2026-12-01T21:30:00Z")) from None
    player = value("player")
    if len(player) > MAX_FIELD or player != player.strip() or not player:
        raise bad("player", _("1..{v0} characters").format(v0=MAX_FIELD))
    result = value("result")
    if result not in RESULTS:
        raise bad("result", _("{v0!r} is not one of {v1}").format(v0=result, v1=', '.join(RESULTS)))
    if not _INT.match(value("moves")):
        raise bad("moves", _("a whole number"))
    if not _SECONDS.match(value("seconds")):
        raise bad("seconds", _("seconds with three decimals, like 723.412"))
    seconds = float(value("seconds"))
    score = None
    if "score" in headers:
        if not _SCORE.match(value("score")):
            raise bad("score", _("a whole number"))
        score = int(value("score"))
    optional = {}
    for key in ("palast", "table"):
        if key in headers:
            text = value(key)
            if not text or len(text) > MAX_FIELD or text != text.strip():
                raise bad(key, _("1..{v0} characters").format(v0=MAX_FIELD))
            optional[key] = text
    if actions and actions[-1][0] > round(seconds * 1000):
        raise RecordError(end, _("an action at {v0} ms, after the round's {v1:.3f} seconds").format(v0=actions[-1][0], v1=seconds))
    return Record(deal=deal, suits=int(value("suits")), rules=rules, date=date, player=player, result=result,
                  moves=int(value("moves")), seconds=seconds, actions=actions, score=score,
                  palast=optional.get("palast"), table=optional.get("table"), extra=extra)


def _action_lines(text: str | None) -> list[int]:
    """The line number of each action in ``text`` (for reasons); plain counting when None."""
    if text is None:
        return []
    out = []
    seen_action = False
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if seen_action or line[0].isdigit():
            seen_action = True
            out.append(number)
    return out


def start(record: Record) -> Game:
    """The round's first position: the record's deal under its rules."""
    return Game.new(record.deal, suits=record.suits, rules=record.rules)


def play_action(game: Game, move: str) -> None:
    """Play one action on ``game`` (``undo`` included); ``IllegalMove`` when it can't be."""
    if move == UNDO:
        if not game.undo():
            raise IllegalMove(_("nothing to undo (or undo is off in these rules)"))
        return
    game.play(move)


def positions(record: Record) -> Iterator[Game]:
    """The position before the first action, then after each action (a copy each): the steps of a
    replay.  Raises :class:`RecordError` (line counted from the first action) when one fails."""
    game = start(record)
    yield game.copy()
    for i, (_ms, move) in enumerate(record.actions):
        try:
            play_action(game, move)
        except IllegalMove as e:
            raise RecordError(i + 1, _("{v0}: {v1}").format(v0=move, v1=said(e.reason))) from None
        yield game.copy()


def replay(record: Record, text: str | None = None, *, steps: int | None = None) -> Game:
    """The record's actions played on the engine (the first ``steps`` of them); the game with its
    undo history.  :class:`RecordError` names the line that fails (in ``text`` when given)."""
    lines = _action_lines(text)
    try:
        game = start(record)
    except (ValueError, PositionError) as e:
        raise RecordError(0, str(e)) from None
    for i, (_ms, move) in enumerate(record.actions[:steps]):
        try:
            play_action(game, move)
        except IllegalMove as e:
            line = lines[i] if i < len(lines) else 0
            raise RecordError(line, _("{v0}: {v1}").format(v0=move, v1=said(e.reason))) from None
    return game


def check(record: Record, text: str | None = None) -> Game:
    """Replay the record and check that it reaches exactly its recorded result, moves and score
    (SPEC §16); returns the final game.  :class:`RecordError` names the first failing line."""
    game = replay(record, text)
    end = (_action_lines(text) or [0])[-1] if text is not None else 0
    if game.moves != record.moves:
        raise RecordError(end, _("the record says {v0} moves; its actions make {v1}").format(v0=record.moves, v1=game.moves))
    if record.score is not None and game.score != record.score:
        raise RecordError(end, _("the record says score {v0}; its actions make {v1}").format(v0=record.score, v1=game.score))
    if record.result == "won" and not game.won:
        raise RecordError(end, _("the record says won; its actions don't win the round"))
    if record.result != "won" and game.won:
        raise RecordError(end, _("the record says {v0}; its actions win the round").format(v0=record.result))
    if record.result == "stuck" and not game.stuck:
        raise RecordError(end, _("the record says stuck; moves are left at its end"))
    if record.result == "time" and record.palast is None:  # a Palast round's clock is the server's
        limit = game.rules.countdown
        if limit is None:
            raise RecordError(end, _("the record says time, but its rules have no countdown"))
        if record.seconds + 0.001 < limit:
            raise RecordError(end, _("the record says time after {v0:.3f} s of a {v1} s countdown").format(v0=record.seconds, v1=limit))
    return game


def read_checked(text: str | bytes) -> tuple[Record, Game]:
    """:func:`read` then :func:`check`: a record that replays to its result, and its last position."""
    record = read(text)
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return record, check(record, text)


def minutes(seconds: float) -> str:
    """``12:03`` (``1:02:03`` from an hour)."""
    total = int(round(seconds))
    hours, rest = divmod(total, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hours}:{mins:02d}:{secs:02d}" if hours else f"{mins}:{secs:02d}"


def share_line(record: Record) -> str:
    """The spoiler-free line ``x`` copies (SPEC §16): the deal, the suits, the result, no move.

    >>> share_line(Record(deal=1234, suits=2, rules="classic", date="2026-12-01T21:30:00Z",
    ...     player="ann", result="won", moves=147, seconds=723.0))
    'spider · deal 1234 · 2 suits · won in 147 moves, 12:03'
    """
    from spider_tui.i18n import _, ngettext

    suits = ngettext("{n} suit", "{n} suits", record.suits).format(n=record.suits)
    parts = ["spider", _("deal {deal}").format(deal=record.deal), suits]
    if record.rules != "classic":
        parts.append(record.rules)
    moves = ngettext("{n} move", "{n} moves", record.moves).format(n=record.moves)
    time = minutes(record.seconds)
    if record.won:
        outcome = _("won in {moves}, {time}").format(moves=moves, time=time)
    else:
        outcome = _("{result} after {moves}, {time}").format(result=result_word(record.result), moves=moves, time=time)
    if record.score is not None:
        outcome += " · " + _("{score} points").format(score=record.score)
    return " · ".join(parts + [outcome])


def result_word(result: str) -> str:
    """A result as the player reads it (translated)."""
    from spider_tui.i18n import _

    words = {"won": _("won"), "gave up": _("gave up"), "stuck": _("stuck"), "left": _("left"),
             "out": _("out"), "time": _("out of time")}
    return words.get(result, result)


def actions_text(actions: Sequence[Action]) -> str:
    """Action lines only (the unfinished round's log in the save file)."""
    return "".join(f"{ms} {move}\n" for ms, move in actions)


def parse_actions(text: str) -> tuple[Action, ...]:
    """Read :func:`actions_text` back; ``ValueError`` when a line isn't an action."""
    out: list[Action] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        ms, sep, move = line.partition(" ")
        if not sep or not _INT.match(ms) or not move.strip() or not move.isprintable():
            raise ValueError(f"not an action line: {line[:40]!r}")
        out.append((int(ms), move.strip()))
        if len(out) > MAX_ACTIONS:
            raise ValueError("too many actions")
    return tuple(out)
