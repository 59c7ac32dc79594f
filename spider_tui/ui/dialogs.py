"""Modal screens: confirm, won, help."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from spider_tui.ui.widgets import Chip


def clock_text(seconds: float) -> str:
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Confirm(ModalScreen[bool]):
    """Ask before ending a round in progress.  y/Enter = yes, n/Esc = no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical { width: 56; height: auto; padding: 1 2; border: round $accent; background: $surface; }
    Confirm Horizontal { height: 1; margin-top: 1; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, markup=False)
            with Horizontal():
                yield Chip("Yes (y)", "answer(True)", id="yes")
                yield Chip("No (n)", "answer(False)", id="no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class Won(ModalScreen[str]):
    """The round is won: moves, time and hints used, with New and Retry."""

    BINDINGS = [
        Binding("n", "choose('new')", "New"),
        Binding("r", "choose('retry')", "Retry"),
        Binding("escape,enter", "choose('close')", "Close"),
    ]
    DEFAULT_CSS = """
    Won { align: center middle; }
    Won > Vertical { width: 44; height: auto; padding: 1 2; border: round $success; background: $surface; }
    Won Horizontal { height: 1; margin-top: 1; }
    """

    def __init__(self, moves: int, seconds: float, hints: int, title: str, score: int | None = None) -> None:
        super().__init__()
        self.moves, self.seconds, self.hints, self.title_text = moves, seconds, hints, title
        self.score = score

    def compose(self) -> ComposeResult:
        body = Text()
        body.append("Won!\n", style="bold")
        body.append(f"{self.title_text}\n\n")
        body.append(f"Moves  {self.moves}\nTime   {clock_text(self.seconds)}\nHints  {self.hints}")
        if self.score is not None:
            body.append(f"\nScore  {self.score}")
        with Vertical():
            yield Static(body, id="won-body")
            with Horizontal():
                yield Chip("New (n)", "choose('new')", id="won-new")
                yield Chip("Retry (r)", "choose('retry')", id="won-retry")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


HELP = """\
SPIDER

Build eight runs from King down to Ace in one suit. A finished run leaves the table by
itself. Win when all eight are gone.

RULES
- Any face-up card can go onto a card exactly one rank higher, whatever its suit.
- Several cards move together only when they are one suit in order, down to the end of the
  column. There is no limit to how many.
- An empty column takes any card or movable group.
- A face-down card turns up when it becomes the last card of its column.
- The stock deals one card onto every column, five times in all. It won't deal while a
  column is empty.
- One move is one action: a group moved, or a deal. Undo takes back an action and
  everything it caused, as often as you like. Hints are free too.

MOUSE
Click a card to pick up the group it leads; every place it can go is marked. Click a column
to put it there; click somewhere it can't go and you pick up what can move there instead.
Double-click a card to make its best move. Click Deals to deal.

KEYS
1-9, 0    pick up column 1-10 (longest group); again: one card fewer; another: move there
arrows / h j k l   move the cursor;  Space / Enter   pick up, put down (Enter: best move,
          or the hint on show)
d deal   u undo   ? hint   Esc drop   r retry   n new   s stats   F1 help   q quit
J joker (with the Joker rule: then pick a column)   g give up
w could this still be won? (the solver peeks at hidden cards: the round becomes practice)

SPECIAL RULES (start screen, o)
Relaxed deals onto empty columns. Open deals every card face up. Undo off means what it
says. Scorpion builds only in suit, lets any face-up group move, lets only a King (or a
group led by one) into an empty column, and always deals. Joker gives three wild picks a
round: the column you pick receives a matching card from the stock or the table. Scoring
keeps the Spider Palast points. Timed and Fast put a clock on the round. Practice rounds
are not recorded. Spiderette (7 columns, one deck) and Simple Simon (all face up, no
stock) are the one-deck relatives.

TIPS
- Turn over face-down cards first: a column only opens up once its hidden cards are gone.
- Build in one suit whenever you can choose. A mixed pile is a wall; a one-suit run is
  cargo you can move.
- An empty column is the most valuable thing on the table. Park a run there to free the
  card under it, but remember the stock won't deal until every column has a card again.
- Tidy up before you deal: a deal drops a card on every column and buries what lies there.
- Every rank comes eight times. When a 7 fits, you often have a choice: take the one whose
  suit matches the card it lands on.
- Stuck? Ask for a hint before you undo: it often points at a card you stopped seeing.
"""


class Help(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q,question_mark", "dismiss_help", "Close")]
    DEFAULT_CSS = """
    Help { align: center middle; }
    Help > VerticalScroll { width: 96; max-width: 100%; height: 90%; padding: 0 2; border: round $accent; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(HELP, markup=False)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
