"""The lesson runner: reads the lesson files, checks a lesson's goal, and says whether the goal
can still be reached from the position on the table (SPEC §15).  Plain Python on the engine.

>>> lessons = load_lessons()
>>> len(lessons) >= 7, lessons[0].number
(True, 1)
>>> run = LessonRun(lessons[0])
>>> run.state, run.status == lessons[0].task
('playing', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from spider_tui.engine import Game, IllegalMove
from spider_tui.engine.scoring import JOIN_POINTS, REVEAL_POINTS, RUN_POINTS, WIN_POINTS
from spider_tui.i18n import N_, _, language

#: Positions the reachability search looks at before it gives up (and says nothing): the wrong
#: lines of the lessons are known within 1000; 2000 keeps an action under ~0.4 s CPU at worst.
SEARCH_BUDGET = 2_000
#: Moves ahead the search looks at most (lesson positions are short).
MAX_DEPTH = 200

CANT_FINISH = N_("This lesson can't be finished from here any more. Undo, or r to retry.")


@dataclass(frozen=True)
class Goal:
    """What a lesson asks for, checked on a Game.

    >>> Goal.parse("runs 2"), Goal.parse("revealed").text
    (Goal(kind='runs', amount=2), 'revealed')
    """

    kind: str  # "won", "runs", "revealed", "score"
    amount: int = 0

    KINDS = ("won", "runs", "revealed", "score")

    @classmethod
    def parse(cls, text: str) -> "Goal":
        words = text.split()
        if not words or words[0] not in cls.KINDS:
            raise ValueError(f"unknown goal {text!r} (known: {', '.join(cls.KINDS)})")
        kind = words[0]
        if kind in ("runs", "score"):
            if len(words) != 2 or not words[1].lstrip("-").isdigit():
                raise ValueError(f"goal {kind!r} needs a number, e.g. '{kind} 1'")
            return cls(kind, int(words[1]))
        if len(words) != 1:
            raise ValueError(f"goal {kind!r} takes no number")
        return cls(kind)

    @property
    def text(self) -> str:
        return f"{self.kind} {self.amount}" if self.kind in ("runs", "score") else self.kind

    def reached(self, game: Game, runs_before: int = 0) -> bool:
        """Is the goal reached in ``game``?  ``runs_before``: runs done when the lesson began."""
        if self.kind == "won":
            return game.won
        if self.kind == "runs":
            return len(game.done) - runs_before >= self.amount
        if self.kind == "revealed":
            return not any(game.down)
        return game.won and (game.score or 0) >= self.amount

    def hopeless(self, game: Game) -> bool:
        """A quick bound for the search: can't a score goal be met whatever follows?  Every
        card still face down and every run still to make at most earns its points, the solve
        bonus at most its base less the moves made, and a join (one move each) gains at most
        its points less the move it costs from the bonus.  False for the other goals."""
        if self.kind != "score":
            return False
        s = game.suits
        cards = sum(len(c) for c in game.columns) + len(game.stock)
        runs_left = min(game.runs_to_win - len(game.done), cards // 13)
        best = ((game.score or 0) + sum(game.down) * REVEAL_POINTS[s] + runs_left * RUN_POINTS[s]
                + WIN_POINTS[s] - game.moves + 3 * game.jokers_left)
        best += cards * max(0, JOIN_POINTS[s] - 1)
        return best < self.amount

    def merit(self, game: Game) -> int:
        """For the search: how good a way of reaching a position is (a score goal: points so far
        less the moves made, as the solve bonus shrinks by one a move); 0 for the other goals."""
        if self.kind == "score":
            return (game.score or 0) - game.moves
        return 0


def can_reach(game: Game, goal: Goal, runs_before: int = 0, budget: int = SEARCH_BUDGET) -> bool | None:
    """Can ``goal`` still be reached from ``game`` by playing on (no undo)?  ``None`` when the
    search ran out of ``budget`` positions (or of depth) before it knew.  ``game`` is left as
    it was.

    Depth-first over the legal moves, without recursion; a position met again by a way no
    better than before (``Goal.merit``) is not searched again."""
    g = game.copy()
    if goal.reached(g, runs_before):
        return True
    if g.over or goal.hopeless(g):
        return False
    seen: dict[tuple, int] = {_search_key(g): goal.merit(g)}
    stack = [iter(_moves(g))]
    scores = [g.score]  # undo costs a point: the search puts the score back as it was

    def back() -> None:
        g.undo()
        g.score = scores.pop()

    unsure = False
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                back()
            continue
        scores.append(g.score)
        g.play(move)
        if goal.reached(g, runs_before):
            return True
        key, merit = _search_key(g), goal.merit(g)
        best = seen.get(key)
        if g.over or (best is not None and best >= merit) or goal.hopeless(g):
            back()
            continue
        if len(stack) >= MAX_DEPTH:
            unsure = True
            back()
            continue
        seen[key] = merit
        if len(seen) > budget:
            return None
        stack.append(iter(_moves(g)))
    return None if unsure else False


def _search_key(g: Game) -> tuple:
    """The position for the search: with the stock empty the order of the columns no longer
    matters (nothing is dealt onto them by number), so columns are sorted."""
    if g.stock:
        return g.key()
    return tuple(sorted(zip(map(tuple, g.columns), g.down))), tuple(sorted(g.done)), g.jokers_left, g.lost


def _moves(g: Game) -> list:
    """The legal moves, with the stock empty only into the first empty column (the others
    are the same position again)."""
    moves = g.legal_moves()
    if g.stock:
        return moves
    empty = [i for i, c in enumerate(g.columns) if not c]
    if len(empty) < 2:
        return moves
    return [m for m in moves if m.is_deal or m.target not in empty[1:]]


@dataclass(frozen=True)
class Lesson:
    """One lesson: its position text and what it asks."""

    number: int
    name: str  # the file's name without .txt, e.g. "01-moving"
    title: str
    task: str
    goal: Goal
    success: tuple[str, ...]
    position: str
    solution: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    #: The German words of the file (``#: title.de:``, ``task.de``, ``success.de``): (title, task, success).
    german: tuple[str, str, tuple[str, ...]] | None = None

    def _said(self) -> tuple[str, str, tuple[str, ...]]:
        if language() == "de" and self.german is not None:
            return self.german
        return self.title, self.task, self.success

    @property
    def shown_title(self) -> str:
        """The title in the language spoken (the file's German when it has one)."""
        return self._said()[0]

    @property
    def shown_task(self) -> str:
        return self._said()[1]

    @property
    def shown_success(self) -> tuple[str, ...]:
        return self._said()[2]

    def game(self) -> Game:
        return Game.from_text(self.position)

    @property
    def key(self) -> str:
        """The name the save file remembers a finished lesson by (stable across versions)."""
        return self.name.split("-", 1)[1] if "-" in self.name else self.name


def parse_lesson(name: str, text: str) -> Lesson:
    """A lesson from its file ``name`` (``01-moving``) and text; ValueError names the fault."""
    meta: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#:"):
            key, sep, value = line[2:].partition(":")
            if not sep:
                raise ValueError(f"lesson {name}: '#:' line without a key: {line!r}")
            meta.setdefault(key.strip(), []).append(value.strip())
    for needed in ("title", "task", "goal", "success"):
        if needed not in meta:
            raise ValueError(f"lesson {name}: no '#: {needed}:' line")
    number = int(name.split("-", 1)[0])
    try:
        Game.from_text(text)
    except ValueError as e:  # PositionError names the line
        raise ValueError(f"lesson {name}: {e}") from e
    return Lesson(
        number=number, name=name, title=meta["title"][0], task=meta["task"][0],
        goal=Goal.parse(meta["goal"][0]), success=tuple(meta["success"][:2]), position=text,
        solution=tuple(" ".join(meta.get("solution", [])).split()),
        wrong=tuple(" ".join(meta.get("wrong", [])).split()),
        german=_german(name, meta),
    )


def _german(name: str, meta: dict[str, list[str]]) -> tuple[str, str, tuple[str, ...]] | None:
    """The ``.de`` lines of a lesson: all three or none (a half-translated lesson is a fault)."""
    keys = ("title.de", "task.de", "success.de")
    if not any(k in meta for k in keys):
        return None
    for k in keys:
        if k not in meta:
            raise ValueError(f"lesson {name}: no '#: {k}:' line (the German needs title, task and success)")
    return meta["title.de"][0], meta["task.de"][0], tuple(meta["success.de"][:2])


@lru_cache(maxsize=1)
def load_lessons() -> tuple[Lesson, ...]:
    """Every lesson shipped with the package, in order."""
    folder = resources.files("spider_tui.lessons")
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".txt") and entry.name[:2].isdigit():
            found.append(parse_lesson(entry.name[:-4], entry.read_text(encoding="utf-8")))
    return tuple(sorted(found, key=lambda lesson: lesson.number))


def lesson_by_number(number: int) -> Lesson | None:
    for lesson in load_lessons():
        if lesson.number == number:
            return lesson
    return None


@dataclass
class LessonRun:
    """A lesson being played: its game, and after every action the state and the status line.

    ``state`` is ``"playing"``, ``"done"`` (the goal is reached) or ``"lost"`` (it can't be
    reached from here any more: undo or retry)."""

    lesson: Lesson
    game: Game = field(init=False)
    state: str = field(init=False, default="playing")

    def __post_init__(self) -> None:
        self.game = self.lesson.game()
        self._runs_before = len(self.game.done)

    @property
    def status(self) -> str:
        """The status line: the task, the lesson's explanation once done, or that it can't be
        finished from here."""
        if self.state == "done":
            return _("Done!") + " " + " ".join(self.lesson.shown_success)
        if self.state == "lost":
            return _(CANT_FINISH)
        return self.lesson.shown_task

    def check(self) -> str:
        """Look at the game after an action (or an undo); returns the new state."""
        goal = self.lesson.goal
        if goal.reached(self.game, self._runs_before):
            self.state = "done"
        elif can_reach(self.game, goal, self._runs_before) is False:
            self.state = "lost"
        else:
            self.state = "playing"
        return self.state

    def play(self, move: str) -> str:
        """Play ``move`` (raises IllegalMove) and check; for tests and scripts."""
        if self.state == "done":
            raise IllegalMove(_("The lesson is done."))
        self.game.play(move)
        return self.check()

    def undo(self) -> bool:
        if self.state == "done" or not self.game.undo():
            return False
        self.check()
        return True

    def retry(self) -> None:
        self.game = self.lesson.game()
        self.state = "playing"
