""""Could this still be won?" on the table screen (SPEC §14): confirm, ask in the background, tell.

The solver peeks at face-down cards and the stock, so the question says first that asking
turns the round into practice (not recorded), and only then asks.  It runs in a child process
on its own copy of the position (``spider_tui.winnable.Question``, the one runner of a solver
question, waits for it in a thread): the table stays live, and the search's memory goes back
when it ends.  Asking again while it runs stops it (and kills the child); leaving the round
stops it too.

The game screen holds one :class:`SolverQuestion` and gives it what it needs as callables: it
knows no screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spider_tui.commands import keys_text
from spider_tui.i18n import N_, _
from spider_tui.table import Table

if TYPE_CHECKING:  # the solver is loaded when first asked, not at start (SPEC §11's start budget)
    from spider_tui.engine.solve import Solution
    from spider_tui.winnable import Question

ASK = N_(
    "Could this still be won?\n\n"
    "The solver looks at the face-down cards and the stock, which you can't see. "
    "Asking turns this round into practice: it won't count in your stats.\n\nAsk?"
)  # shown through _()


class SolverQuestion:
    """The solver question of one round on screen.

    ``tell(text, timeout)`` shows a line; ``confirm(question, answered)`` asks yes/no and calls
    ``answered(True)`` on yes; ``practice()`` is called once the round has become practice (the
    screen retitles it and its session hears it); ``to_ui(fn, *args)`` runs ``fn`` on the UI
    thread (the answer comes from the solver's); ``changed()`` shows the table again (the answer
    is on its status line; the solution's next move is outlined)."""

    def __init__(self, table: Table, *, tell: Callable[[str, float | None], None],
                 confirm: Callable[[str, Callable[[object], None]], None], practice: Callable[[], None],
                 to_ui: Callable[..., object], changed: Callable[[], None] = lambda: None) -> None:
        self.table = table
        self.changed = changed
        self.tell = tell
        self.confirm = confirm
        self.practice = practice
        self.to_ui = to_ui
        self.running: Question | None = None  # the question asked last

    def ask(self) -> None:
        """The command: stop a question that runs, else confirm (unless already practice) and ask."""
        running = self.running
        if running is not None and running.thread.is_alive() and not running.cancelled:
            running.cancel()
            self.tell(_("Stopped asking the solver."), None)
            return
        table = self.table
        if table.show_solution_move():  # a "yes" about this position: its next move, as a hint
            self.changed()
            return
        if table.over:
            self.tell(_("The round is over."), None)
            return
        if table.practice or table.game.rules.practice:
            self._start()
            return

        def answered(yes: object) -> None:
            if yes is True:
                self._start()

        self.confirm(_(ASK), answered)

    def _start(self) -> None:
        table = self.table
        if table.make_practice():  # said before asking: the round is not recorded now
            self.practice()
        moves_then = table.game.moves

        from spider_tui.winnable import QUESTION_SECONDS, Question

        def on_answer(found: Solution, seconds: float) -> None:  # in the solver's thread
            self.to_ui(self._answer, question, found, seconds, moves_then)

        question = self.running = Question(table.game, on_answer)
        question.start()
        self.tell(_("Asking the solver (up to {seconds:g} s); play on meanwhile. Press {key} again to stop.").format(
            seconds=QUESTION_SECONDS, key=keys_text("still_winnable")), None)

    def _answer(self, question: Question, found: Solution, seconds: float, moves_then: int) -> None:
        if question.cancelled or question is not self.running:
            return
        # The answer belongs to the position asked about: the status line says it while the table
        # shows that position (or one along the solution), and it goes when the position changes.
        from spider_tui.winnable import Answer, answer_text

        answer = Answer(question.game, found, seconds)
        self.table.take_answer(answer)
        if answer.text(self.table.game, keys_text("still_winnable")) is None:  # played on meanwhile
            self.tell(_("About the position after move {n}:").format(n=moves_then) + " " + answer_text(found, seconds), 12)
        self.changed()

    def cancel(self) -> None:
        """Leaving the round: stop the question."""
        if self.running is not None:
            self.running.cancel()


__all__ = ["ASK", "SolverQuestion"]
