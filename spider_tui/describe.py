"""``spider --describe`` (and ``TERM=dumb``): the game as a stream of lines (SPEC §17).

A second front end on the same :class:`~spider_tui.table.Table` and
:class:`~spider_tui.session.SoloSession` as the full-screen app, for a screen reader or a braille
display: nothing redraws, nothing ticks, the terminal's cursor stays where the terminal puts it.
Every command is a line ended by Enter; every answer is one line (a read-out of the table is one
line a column).  The rules are the table's: this module only words what the table did.

- :class:`Describer` reads one command and returns the lines that answer it (no I/O: tested
  without a terminal);
- :func:`run` is the loop on stdin/stdout (the save file is written as in the app).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from spider_tui.engine import IllegalMove, Move
from spider_tui.engine.cards import RANK_CHARS, UNKNOWN, rank_of, suit_of
from spider_tui.engine_words import said
from spider_tui.i18n import N_, _, ngettext
from spider_tui.safe_text import visible
from spider_tui.session import Session, title_for
from spider_tui.table import Table

if TYPE_CHECKING:
    from spider_tui.store import SaveFile
    from spider_tui.ui_launch import Launch

GLYPHS = ("♠", "♥", "♦", "♣")
ASCII_SUITS = ("S", "H", "D", "C")
LINE_LIMIT = 200
"""A command is a few characters; a longer line is refused unread (a paste, a stray file)."""

HELP_LINES = (
    N_("Commands, each ended by Enter:"),
    N_("3>2 moves the group that fits from column 3 to column 2; 3>2:2 moves 2 cards."),
    N_("d deals a row, u undoes the last move, ? gives a hint."),
    N_("c 3 reads column 3, face-down cards first, the exposed card last."),
    N_("t reads every column's exposed card, s the stock, runs and moves, l the last move."),
    N_("n starts a new deal, r retries this deal, h says this help, q quits (the round is kept)."),
)


class Describer:
    """One player's line front end on a session's table.

    ``ascii`` writes suits as S H D C.  ``confirm`` is the question waiting for ``y``.
    """

    def __init__(self, session: Session, *, ascii: bool = False,
                 new_round: Callable[[], Table | None] | None = None,
                 retry: Callable[[], Table | None] | None = None) -> None:
        self.session = session
        self.ascii = ascii
        self._new_round = new_round
        self._retry = retry
        self.last: str | None = None  # the last action's sentence (``l``)
        self._said: list[str] = []  # sentences of the moves undo can take back, latest last
        self.confirm: str | None = None  # "new" or "retry" while the question waits
        self.done = False  # ``q`` was typed
        #: A move just played on a view (a Palast race) turned up cards the server has not told
        #: yet: :meth:`finish_move` says it again once they are known.
        self.pending_move = False
        self._words = ""

    @property
    def table(self) -> Table:
        assert self.session.table is not None
        return self.session.table

    # ------------------------------------------------------------------ words
    def card(self, card: int) -> str:
        """``7♥``, ``10♠`` (``10S`` in ASCII); a card not yet known is ``??``."""
        if card == UNKNOWN:
            return "??"
        rank = RANK_CHARS[rank_of(card) - 1].replace("T", "10")
        return rank + (ASCII_SUITS if self.ascii else GLYPHS)[suit_of(card)]

    def suit(self, suit: int) -> str:
        return (ASCII_SUITS if self.ascii else GLYPHS)[suit]

    def group(self, cards: list[int]) -> str:
        """A moving group: ``7♥``, or ``9♠ to 7♠ (3 cards)``."""
        if len(cards) == 1:
            return self.card(cards[0])
        return ngettext("{first} to {last} ({n} card)", "{first} to {last} ({n} cards)", len(cards)).format(
            first=self.card(cards[0]), last=self.card(cards[-1]), n=len(cards))

    def move_words(self, move: Move) -> str:
        """The move as a sentence, said before it is played (the hint) or just before playing it."""
        g = self.table.game
        if move.is_deal:
            return _("Deal a row.")
        assert move.count is not None
        cards = g.columns[move.source][-move.count:]
        onto = g.columns[move.target]
        source, target = move.source + 1, move.target + 1  # said as on screen: 1-10
        if onto:
            return _("{cards} from column {source} onto {onto} in column {target}.").format(
                cards=self.group(cards), source=source, onto=self.card(onto[-1]), target=target)
        return _("{cards} from column {source} into the empty column {target}.").format(
            cards=self.group(cards), source=source, target=target)

    def column_line(self, col: int) -> str:
        """``Column 3: 4 face down, then 9♠ 8♠ 7♥.`` (the exposed card last)."""
        g = self.table.game
        cards, down = g.columns[col], g.down[col]
        if not cards:
            return _("Column {n}: empty.").format(n=col + 1)
        up = " ".join(self.card(c) for c in cards[down:])
        if not down:
            return _("Column {n}: {cards}.").format(n=col + 1, cards=up)
        return ngettext("Column {n}: {down} face down, then {cards}.",
                        "Column {n}: {down} face down, then {cards}.", down).format(n=col + 1, down=down, cards=up)

    def exposed_line(self, col: int) -> str:
        """``Column 1: 8♠; 5 face down, 2 face up.`` (``t``)."""
        g = self.table.game
        cards, down = g.columns[col], g.down[col]
        if not cards:
            return _("Column {n}: empty.").format(n=col + 1)
        return _("Column {n}: {card}; {down} face down, {up} face up.").format(
            n=col + 1, card=self.card(cards[-1]), down=down, up=len(cards) - down)

    def stock_line(self) -> str:
        """``Stock: 4 deals left. Runs done: 1 (♠). Moves: 17.`` (``s``)."""
        g = self.table.game
        deals = ngettext("Stock: {n} deal left.", "Stock: {n} deals left.", g.deals_left).format(n=g.deals_left)
        if g.done:
            runs = _("Runs done: {n} ({suits}).").format(n=len(g.done), suits=" ".join(self.suit(s) for s in g.done))
        else:
            runs = _("Runs done: 0.")
        return f"{deals} {runs} " + _("Moves: {n}.").format(n=g.moves)

    def opening(self) -> list[str]:
        """What is said when a round comes to the table: its name, then the table."""
        t = self.table
        head = ngettext("{title}, {suits} suit.", "{title}, {suits} suits.", t.suits).format(
            title=title_for(t), suits=t.suits)
        if t.moves:
            head += " " + ngettext("{n} move played.", "{n} moves played.", t.moves).format(n=t.moves)
        return [head + " " + _("Type h for help."), *self.read_table(), self.stock_line()]

    def read_table(self) -> list[str]:
        return [self.exposed_line(col) for col in range(len(self.table.game.columns))]

    # ------------------------------------------------------------------ commands
    def handle(self, line: str) -> list[str]:
        """The answer to one typed line (a refused or unreadable command changes nothing)."""
        if len(line) > LINE_LIMIT:
            return [_("That line is too long to be a command. Type h for help.")]
        text = " ".join(line.split())
        word = text.lower()
        if self.confirm is not None:
            kind, self.confirm = self.confirm, None
            if word in ("y", "yes", _("y"), _("yes")):
                return self._begin(kind)
            return [_("Nothing changed; the round goes on.")]
        if not word:
            return [_("Type a move like 3>2, or h for help.")]
        if word in ("h", "help"):
            return [_(s) for s in HELP_LINES]
        if word in ("q", "quit"):
            self.done = True
            return [_("Goodbye.") if self.table.over or not self.table.moves
                    else _("The round is kept: spider --describe continues it.")]
        if word == "t":
            return self.read_table()
        if word == "s":
            return [self.stock_line()]
        if word == "l":
            return [self.last or _("No move yet.")]
        if word == "?":
            return [self.hint()]
        if word in ("u", "undo"):
            return [self.undo()]
        if word in ("n", "r"):
            return self.ask("new" if word == "n" else "retry")
        if word == "c" or word.startswith("c "):
            return [self.column(word[1:].strip())]
        return [self.play(text)]

    def column(self, arg: str) -> str:
        n = len(self.table.game.columns)
        if not (arg.isascii() and arg.isdigit()) or not 1 <= int(arg) <= n:
            return _("Which column? Type c and a number from 1 to {n}, like c 3.").format(n=n)
        return self.column_line(int(arg) - 1)

    def hint(self) -> str:
        t = self.table
        if t.over:
            return _("The round is over. Type n for a new deal or r to retry.")
        move = t.hint()
        if move is None:
            return t.status_line
        return _("Hint: {move}").format(move=self.move_words(move))

    def undo(self) -> str:
        t = self.table
        if t.over:
            return _("The round is over: no undo. Type n for a new deal or r to retry.")
        if not t.undo():
            return t.status_line
        undone = self._said.pop() if self._said else None
        self._changed()
        line = undone or _("Undone.")
        if t.status_line:
            line += " " + t.status_line
        self.last = line
        return line

    def play(self, text: str) -> str:
        """A move in §3 notation, or ``d``/``deal``."""
        t = self.table
        if t.over:
            return _("The round is over. Type n for a new deal or r to retry.")
        g = t.game
        try:
            move = g.resolve(text)
        except IllegalMove as e:
            return visible(said(e.reason), newlines=False)  # the engine's refusal in the language spoken
        if move.is_joker:
            return _("Jokers are not played here.")
        if move.is_deal:
            return self.deal()
        words = self.move_words(move)
        if not t.play(move):
            return t.status_line
        self._words = words
        line = words + self._after()
        self._said.append(_("Undone: {move}").format(move=words))
        self.last = line
        self._changed()
        return line

    def deal(self) -> str:
        t = self.table
        g = t.game
        if not t.deal():
            return t.status_line
        self._words = ""
        line = self.dealt_words() + self._after()
        self._said.append(_("Undone: the deal. Its row is back in the stock."))
        self.last = line
        self._changed()
        return line

    def dealt_words(self) -> str:
        t = self.table
        g = t.game
        row = t.played.dealt if t.played is not None else ()
        if UNKNOWN in row and not g.unknown:  # told since: each column's card from the deal
            row = tuple(col[-1] for col in g.columns if col)
        line = _("Dealt a row: {cards}.").format(cards=" ".join(self.card(c) for c in row))
        return line + " " + ngettext("{n} deal left.", "{n} deals left.", g.deals_left).format(n=g.deals_left)

    def finish_move(self) -> str:
        """The last move's line again, with the cards the server told since it was played."""
        self.pending_move = False
        if self.table.played is None:
            return self.last or ""
        words = self._words or self.dealt_words()
        self.last = words + self._after()
        return self.last

    def _after(self) -> str:
        """What the action caused: runs completed, cards turned up, the status (won, stuck)."""
        t = self.table
        parts = []
        played = t.played
        self.pending_move = False
        if played is not None:
            for col, suit in played.completed:
                parts.append(_("A run of {suit} is complete in column {n} and leaves the table.").format(
                    suit=self.suit(suit), n=col + 1))
            g = t.game
            for col, card in played.turned_up:
                if card == UNKNOWN and g.columns[col] and g.columns[col][-1] != UNKNOWN:
                    card = g.columns[col][-1]  # told by the server since the move was played
                self.pending_move = self.pending_move or card == UNKNOWN
                parts.append(_("Turned up {card} in column {n}.").format(card=self.card(card), n=col + 1))
            self.pending_move = self.pending_move or UNKNOWN in played.dealt
        if t.status_line:
            parts.append(t.status_line)
        return "".join(" " + p for p in parts)

    def _changed(self) -> None:
        """Tell the session (it records a round that ended and keeps one in progress)."""
        if self.session.changed() == "keep":
            self.session.keep()

    # ------------------------------------------------------------------ rounds
    def ask(self, kind: str) -> list[str]:
        if self.session.needs_asking():
            self.confirm = kind
            return [self.session.end_question(kind) + " " + _("Type y to confirm, anything else to go on.")]
        return self._begin(kind)

    def _begin(self, kind: str) -> list[str]:
        self.session.leave()
        make = self._new_round if kind == "new" else self._retry
        table = make() if make is not None else None
        if table is None:
            return [_("Nothing changed; the round goes on.")]
        table.resume()
        self.last = None
        self._said = []
        return self.opening()


def run(session: Session, describer: Describer, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Say the opening, then answer each line of ``stdin`` until ``q`` or its end."""
    def say(lines: list[str]) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    assert session.table is not None
    session.table.resume()
    say(describer.opening())
    while not describer.done:
        line = stdin.readline(LINE_LIMIT * 4 + 1)
        if not line:
            break
        if not line.endswith("\n") and len(line) > LINE_LIMIT:
            while line and not line.endswith("\n"):  # drop the rest of an overlong line
                line = stdin.readline(LINE_LIMIT * 4 + 1)
            say([_("That line is too long to be a command. Type h for help.")])
            continue
        say(describer.handle(line.rstrip("\n")))
    if session.table is not None:
        session.table.pause()
        if session.changed() == "keep":
            session.keep()


def play_lines(save: SaveFile, launch: Launch) -> int:
    """``spider --describe``: the round the command line asks for (else the saved one, else a new
    deal at the saved suit count) played by lines; the save file is kept as the app keeps it."""
    from spider_tui.session import SoloSession
    from spider_tui.store.book import SaveBook, playable_rules

    try:
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a glyph the terminal lacks: no traceback
    except (AttributeError, ValueError):
        pass
    book = SaveBook(save)
    if launch.server is not None:
        from spider_tui.describe_palast import play_palast_lines

        code = play_palast_lines(book, launch.server, launch.ascii)
        book.writer.close(timeout=save.lock_timeout + 2)
        return code
    session = SoloSession(lambda: book.data, book.write)
    settings = book.settings
    rules = playable_rules(launch.rules or settings.rules)
    suits = launch.suits or settings.suits
    notes = [n for n in (book.load_error, book.take_notice()) if n]
    resumed: Table | str | None = None
    if launch.position is not None:
        session.practice(launch.position)
    elif launch.daily is not None:
        session.daily(launch.daily, suits)
    elif launch.deal is not None:
        session.deal(launch.deal, suits, rules)
    elif launch.suits is None and (resumed := session.resume()) is not None and not isinstance(resumed, str):
        notes.append(_("Continuing the unfinished round."))
    else:
        if isinstance(resumed, str):
            notes.append(resumed)
        session.new_round(suits, rules)

    def new_round() -> Table | None:
        t = session.table
        return session.new_round(t.suits if t is not None else suits, rules)

    describer = Describer(session, ascii=launch.ascii, new_round=new_round, retry=lambda: session.retry(rules))
    for note in notes:
        sys.stdout.write(visible(note, newlines=False) + "\n")
    try:
        run(session, describer)
    except KeyboardInterrupt:
        if session.table is not None:
            session.table.pause()
            if session.changed() == "keep":
                session.keep()
        sys.stdout.write("\n")
    if not book.writer.close(timeout=save.lock_timeout + 2):
        error = book.writer.last_error
        sys.stderr.write("spider: " + visible(f"{error or _('The save file is still busy.')}", newlines=False) + " "
                         + _("The last changes of this session were not saved.") + "\n")
        return 1
    return 0
