"""Dialogs (drawn over the table): confirm, won, help."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Static

from spider_tui.commands import (
    CONFIRM_ANSWERS, HELP_CLOSE, START_COMMANDS, STATS_CLOSE, WON_ANSWERS, answer_keys, help_keys, keys_text,
)
from spider_tui.i18n import N_, _
from spider_tui.store.report import format_seconds
from spider_tui.ui.widgets.overlay import Overlay, TextDialog
from spider_tui.ui.widgets import Chip

if TYPE_CHECKING:
    from spider_tui.ui.render import Look


ResultType = TypeVar("ResultType")


class ModalDialog(ModalScreen[ResultType]):
    """A modal screen that answers once.  A double or triple click on a chip (or a key right after
    it) arrives after the first answer; dismissing again would pop the screen underneath.
    (Dialogs over the table are ``Overlay``s, which close once by themselves.)"""

    _answered = False

    def answer_once(self, value: ResultType | None) -> None:
        if self._answered or not self.is_current:
            return
        self._answered = True
        self.dismiss(value)


class Confirm(Overlay):
    """Ask before ending a round in progress.  y/Enter = yes, n/Esc = no."""

    KEYS = answer_keys(CONFIRM_ANSWERS)

    def __init__(self, question: str, done=None) -> None:
        super().__init__(done)
        self.question = question

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        w = min(width, 56)
        # Each paragraph wraps on its own; a blank line between paragraphs is a line too.
        lines = sum(len(textwrap.wrap(p, w - 4)) or 1 for p in self.question.split("\n")) or 1
        return w, min(height, lines + 4)

    def compose(self) -> ComposeResult:
        yield Static(self.question, markup=False)
        with Horizontal():
            for answer, name in zip(CONFIRM_ANSWERS, ("yes", "no")):
                yield Chip(answer.chip_text, answer.action, id=name)


class Won(Overlay):
    """The round is won: moves, time and hints used, with New and Retry.

    Enter does not close it (the Enter that played the winning hint, pressed twice, would close
    it unseen); Esc or the Close chip does, and Enter on the won table brings it back."""

    KEYS = answer_keys(WON_ANSWERS)
    DEFAULT_CSS = "Won { border: round $success; }"

    def __init__(self, moves: int, seconds: float, hints: int, title: str, score: int | None = None,
                 done=None) -> None:
        super().__init__(done)
        self.moves, self.seconds, self.hints, self.title_text = moves, seconds, hints, title
        self.score = score

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        return min(width, 44), min(height, 11 + (self.score is not None))

    def compose(self) -> ComposeResult:
        body = Text()
        body.append(_("Won!") + "\n", style="bold")
        body.append(f"{self.title_text}\n\n")
        rows = [(_("Moves"), str(self.moves)), (_("Time"), format_seconds(self.seconds)), (_("Hints"), str(self.hints))]
        if self.score is not None:
            rows.append((_("Score"), str(self.score)))
        width = max(len(label) for label, _value in rows) + 2  # the values in one column, in any language
        body.append("\n".join(f"{label:<{width}}{value}" for label, value in rows))
        yield Static(body, id="won-body")
        with Horizontal():
            for answer in (a for a in WON_ANSWERS if a.label):
                yield Chip(answer.chip_text, answer.action, id=f"won-{answer.result}")


# Paragraphs are single lines: the help wraps them at any width (80×24 and up, down to the
# minimum 50 columns).  Key lines stay short enough not to wrap at the minimum width.
# One text per part (a heading and what follows it): each is translated on its own.
HELP_PARTS = (
    N_("""SPIDER"""),
    N_("""Build eight runs from King down to Ace in one suit. A finished run leaves the table by itself. Win when all eight are gone."""),
    N_("""RULES
- Any face-up card can go onto a card exactly one rank higher, whatever its suit.
- Several cards move together only when they are one suit in order, down to the end of the column. There is no limit to how many.
- An empty column takes any card or movable group.
- A face-down card turns up when it becomes the last card of its column.
- The stock deals one card onto every column, five times in all. It won't deal while a column is empty.
- One move is one action: a group moved, or a deal. Undo takes back an action and everything it caused, as often as you like. Hints are free too."""),
    N_("""MOUSE
Click a card to pick up the group it leads; every place it can go is marked. Click a column to put it there (or drag the card there); click somewhere it can't go and you pick up what can move there instead. Double-click a card to make its best move. Click Deals to deal. Click a "more" line to see a whole column. Every line of the start screen can be clicked."""),
    N_("""KEYS
{keys}"""),
    N_("""SPECIAL RULES (start screen, {rules_key})
Relaxed deals onto empty columns. Open deals every card face up. Undo off means what it says. Scorpion builds only in suit, lets any face-up group move, lets only a King (or a group led by one) into an empty column, and always deals. Face up deals every card face up even with Scorpion: Scorpion with Face up is the classic Scorpion of the rule books, Scorpion alone the Palast's. Joker gives three wild picks a round: the column you pick receives a matching card from the stock or the table. Scoring keeps the Spider Palast points. Timed and Fast put a clock on the round. Practice rounds are not recorded. Spiderette (7 columns, one deck) and Simple Simon (all face up, no stock) are the one-deck relatives."""),
    N_("""DISPLAY (start screen)
Four colours gives every suit its own colour (spades black, hearts red, diamonds blue, clubs green). ASCII draws suits as S H D C and every mark in plain ASCII, for terminals without those glyphs. Both are remembered."""),
    N_("""TIPS
- Turn over face-down cards first: every card you turn up tells you something, and a column only opens up once its hidden cards are gone.
- Build in one suit whenever you can choose. A mixed pile is a wall; a one-suit run is cargo you can move.
- An empty column is the most valuable thing on the table. Park a run there to free the card under it, but remember the stock won't deal until every column has a card again.
- Don't fill an empty column for good until the card you put there has a way back out (a place one rank higher to go to).
- A King at the bottom of a column blocks it: nothing moves it but an empty column, so that column is only useful once you build down from the King.
- Tidy up before you deal: a deal drops a card on every column and buries what lies there. There are only five deals in a round.
- Every rank comes eight times. When a 7 fits, you often have a choice: take the one whose suit matches the card it lands on.
- At 4 suits, work on two or more long one-suit runs side by side, even if short mixed piles have to hold things up for a while.
- Stuck? Ask for a hint before you undo: it often points at a card you stopped seeing.
- New to the game? The lessons on the start screen ({lessons_key}) show each of these ideas on a small table."""),
    N_("""GLOSSARY
- Table (tableau): the ten columns in the middle, where all the play happens.
- Column: one pile of the table. Face-down cards lie at its bottom, face-up cards on them; the last card is the exposed one.
- Stock (talon): the cards not dealt yet, 50 at the start. "Deals: N" counts the rows left in it.
- Deal: one card from the stock onto every column at once, five times a round.
- Movable group: the cards at the end of a column that run down in one suit. They move together, however many.
- Run: a finished sequence from King down to Ace in one suit. It leaves the table at once and fills a slot; eight runs win.
- Empty column: a column with no cards left. Any card or movable group may go there.
- Suit count (level): how many suits the deck has, 1, 2 or 4. The more suits, the fewer builds in suit and the harder the round.
Palast words:
- Table (Palast): a game for several players over the network: a set number of rounds, everyone on the same deals.
- Round: one deal played by everyone at the table at once, against the round clock.
- Round clock: how long a round may last, 20 minutes (10 with Fast), counting down above your table.
- Points: what your actions earn in a scored round (PALAST below has the table). They show where they are earned: green for a gain, red for a loss.
- Solve bonus: the points for clearing the table: 300, 400 or 500 by suit count, less the moves you needed, plus 3 for every joker left.
- Joker: three times a round (a special rule), a column you pick gets the card it needs. At the Palast a joker can't be undone.
- Training: a table that stays out of the league. Its points still count as experience.
- League: the standings of everyone who has finished tables with at least one other player, Training tables aside.
- Rating: your strength in the league, worked out from the final ranking of every table that counts. Beating strong players raises it most.
- Experience: every point you have scored at the Palast, Training included. It only grows."""),
    N_("""PALAST
Points by suit count (1 / 2 / 4 suits):
  a run completed          +50  +100  +150
  a card turned up          +2    +3    +4
  a card joined in suit     +1    +2    +3
  an undo                   -1    -1    -1
  the table cleared       +300  +400  +500
  each joker left           +3    +3    +3
The bonus for clearing the table shrinks by a point for every move you made. Undo also takes back what the action earned. The points show on the table where they are earned, with their sign.
- A round ends when every player has cleared the table, given up, got stuck, left or been offline for a minute, or when the round clock runs out.
- After each round everyone sees its standings: the round's points and the total so far. Press y when you are ready; the next round starts when all are, or after 30 seconds.
- After the last round the ranking by total points is final; equal totals share a place. If you leave a running table, your total so far stands.
- Tables that count (not Training, at least two players) move your league rating; every point you score adds to your experience.
- Watch (w in the lobby): a running table's players live, never its cards. After a round, w shows every player's record of it, to replay step by step.
- Today (d in the lobby): one deal a day per suit count, the same for everyone; one try each, ranked by points then time, not rated. Its commitment shows all day; its deal code is told when the day is over."""),
)


def help_text(translate=_) -> str:
    """The help in the language spoken (``translate=str`` for the English source)."""
    text = "\n\n".join(translate(part) for part in HELP_PARTS) + "\n"
    return text.replace("{keys}", help_keys(translate)).replace(
        "{rules_key}", keys_text("rules", START_COMMANDS)).replace("{lessons_key}", keys_text("lessons", START_COMMANDS))


HELP = help_text(str)  # the English help (what the catalog translates)


def help_lines(text: str, width: int) -> list[str]:
    """The help wrapped to ``width`` columns (paragraph lines wrap; indentation of list items kept)."""
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            out.append("")
            continue
        indent = "  " if line.startswith("- ") else ""
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent) or [""])
    return out


def section_line(lines: list[str], heading: str) -> int:
    """The index of the line that starts the help section ``heading`` (0 if there is none).

    >>> section_line(["SPIDER", "", "TIPS", "- x", "PALAST", "Points"], "PALAST")
    4
    """
    for i, line in enumerate(lines):
        if line == heading or line.startswith(heading + " ("):
            return i
    return 0


class Pager(TextDialog):
    """Text a page at a time (arrows, PgUp/PgDn, Space, the wheel), drawn by the dialog itself
    (no scrollbar widget): opening, closing and scrolling write only the dialog's cells."""

    STEP = {"up": -1, "k": -1, "down": 1, "j": 1, "pageup": -10, "pagedown": 10, "space": 10,
            "home": -10_000, "end": 10_000}
    CLOSE_HINT = N_("Esc: close")

    def __init__(self, done=None) -> None:
        super().__init__(done)
        self.top = 0
        self.lines: list[Text] = []
        self.rows = 1

    def page_lines(self, width: int) -> list[Text]:
        """The whole text as lines of at most ``width`` cells."""
        raise NotImplementedError

    def lay_out(self) -> None:
        """Wrap the text to this dialog's width (known before the first paint)."""
        # The content area: inside the border (2) and the padding (2 columns).
        width = self.size.width or (int(self.styles.width.value) - 4 if self.styles.width is not None else 60)
        height = self.size.height or (int(self.styles.height.value) - 2 if self.styles.height is not None else 11)
        self.lines = self.page_lines(max(20, width))
        self.rows = max(1, height - 1)  # the last line says where you are

    def render(self) -> Text:
        # One widget, no children: mounted and painted once (children would paint it twice).
        if not self.lines:
            self.lay_out()
        self.top = max(0, min(self.top, len(self.lines) - self.rows))
        window = self.lines[self.top:self.top + self.rows]
        window += [Text("")] * (self.rows - len(window))
        last = min(len(self.lines), self.top + self.rows)
        text = Text("\n", no_wrap=True, overflow="crop").join([*window, Text("")])
        if len(self.lines) > self.rows:
            text.append(_("Lines {first}-{last} of {count}. Down/PgDn: more, {close}").format(
                first=self.top + 1, last=last, count=len(self.lines), close=_(self.CLOSE_HINT)), "dim")
        else:
            text.append(_(self.CLOSE_HINT), "dim")
        text.no_wrap, text.overflow = True, "crop"
        return text

    def show(self) -> None:
        self.refresh()

    def press(self, key: str) -> bool:
        if key in self.STEP:
            step = self.STEP[key]
            self.top += step if abs(step) != 10 else (self.rows - 1) * (1 if step > 0 else -1)  # a page
            self.show()
            return True
        return super().press(key)

    def on_click(self, event) -> None:
        """A click on the last line (where it says how to close) closes it."""
        event.stop()
        at = event.get_content_offset(self)
        if at is not None and at.y >= self.rows:
            self.close(None)

    def on_mouse_scroll_down(self, event) -> None:
        self.top += 3
        self.show()

    def on_mouse_scroll_up(self, event) -> None:
        self.top -= 3
        self.show()


class Help(Pager):
    """The rules, the controls and the tips, a page at a time."""

    KEYS = answer_keys(HELP_CLOSE)

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        # As tall as the screen allows (the bars above and below stay): more help per page, fewer
        # page turns.  54 columns keep a page turn and opening it ≤ 8 KB (SPEC §11) at any height.
        return min(width, 54), max(8, height - 4)

    def __init__(self, look: Look | None = None, done=None, section: str | None = None) -> None:
        super().__init__(done)
        self.look = look
        self.section = section  # a heading (e.g. "PALAST") the help opens at

    def page_lines(self, width: int) -> list[Text]:
        look = self.look
        help_ = help_text()
        text = look.text(help_) if look is not None else help_
        lines = help_lines(text, width)
        if self.section is not None:
            self.top = section_line(lines, self.section)
        return [Text(line) for line in lines]


class Stats(Pager):
    """The stats (SPEC §10) over the table during a round: every suit count, then each special
    rules' own stats.  s, q or Esc closes it."""

    KEYS = {key: None for key in STATS_CLOSE.keys.split(",")}
    CLOSE_HINT = N_("s/Esc: close")

    def __init__(self, data: dict, ascii: bool = False, done=None) -> None:
        super().__init__(done)
        self.data, self.ascii = data, ascii

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        return min(width, 72), max(8, min(height - 2, 21))  # from 64 columns the levels are named (SPEC §15)

    def page_lines(self, width: int) -> list[Text]:
        import io

        from rich.console import Console

        from spider_tui.store import stats_rules
        from spider_tui.store.report import stats_table

        parts: list = []
        for rules in stats_rules(self.data) or ["classic"]:  # other rules keep their own (SPEC §10)
            table = stats_table(self.data, rules=rules, ascii=self.ascii, levels=width >= 64)
            # The title on a line of its own (Rich put the ASCII box's top edge beside it).
            title, table.title = table.title, None
            parts += [Text("")] * bool(parts) + [Text(str(title), style="bold"), table]
        # Printed as the stats screen prints them, then read back as styled lines.
        console = Console(width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                          legacy_windows=False, emoji=False, markup=False, highlight=False)
        with console.capture() as capture:
            for part in parts:
                console.print(part)
        lines = list(Text.from_ansi(capture.get(), no_wrap=True).split("\n"))
        for line in lines:
            line.rstrip()
        while lines and not lines[-1].plain.strip():
            lines.pop()
        return lines
