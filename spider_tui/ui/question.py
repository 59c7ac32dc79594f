""""Could this still be won?" on the table screen (SPEC §14): confirm, ask in the background, tell.

The solver peeks at face-down cards and the stock, so the question says first that asking
turns the round into practice (not recorded), and only then asks.  It runs in a thread on its
own copy of the position: the table stays live.  Asking again while it runs stops it; leaving
the round stops it too.  The logic lives in ``spider_tui.winnable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_tui.commands import keys_text
from spider_tui.engine.solve import Solution
from spider_tui.winnable import QUESTION_SECONDS, Answer, Question, answer_text

if TYPE_CHECKING:
    from spider_tui.ui.screens.game_screen import GameScreen

ASK = (
    "Could this still be won?\n\n"
    "The solver looks at the face-down cards and the stock, which you can't see. "
    "Asking turns this round into practice: it won't count in your stats.\n\nAsk?"
)


def ask(screen: "GameScreen") -> None:
    """The command: stop a question that runs, else confirm (unless already practice) and ask."""
    running: Question | None = getattr(screen, "question", None)
    if running is not None and running.thread.is_alive() and not running.cancelled:
        running.cancel()
        screen.notify("Stopped asking the solver.", markup=False)
        return
    table = screen.table
    if table.show_solution_move():  # a "yes" about this position: its next move, as a hint
        screen.sync()
        return
    if table.over:
        screen.notify("The round is over.", markup=False)
        return
    if table.practice or table.game.rules.practice:
        _start(screen)
        return
    from spider_tui.ui.widgets.dialogs import Confirm

    def answered(yes: object) -> None:
        if yes is True:
            _start(screen)

    screen.app.open_dialog(Confirm(ASK, answered))  # type: ignore[attr-defined]


def _start(screen: "GameScreen") -> None:
    table = screen.table
    if not table.practice:
        table.practice = True  # said before asking: the round is not recorded now
        if "practice" not in screen.title_text:
            screen.title_text += " · practice"
        screen.show_info()
        screen.post_message(screen.Asks("changed"))  # the session hears it: not recorded now
    app = screen.app
    moves_then = table.game.moves

    def on_answer(found: Solution, seconds: float) -> None:  # in the solver's thread
        app.call_from_thread(_tell, screen, question, found, seconds, moves_then)

    question = Question(table.game, on_answer)
    setattr(screen, "question", question)
    question.start()
    note = f"Asking the solver (up to {QUESTION_SECONDS:g} s); play on meanwhile. Press {keys_text('still_winnable')} again to stop."
    screen.notify(note, markup=False)


def _tell(screen: "GameScreen", question: Question, found: Solution, seconds: float, moves_then: int) -> None:
    if question.cancelled or getattr(screen, "question", None) is not question or not screen.is_attached:
        return
    # The answer belongs to the position asked about: the status line says it while the table
    # shows that position (or one along the solution), and it goes when the position changes.
    answer = Answer(question.game, found, seconds)
    table = screen.table
    table.take_answer(answer)
    if answer.text(table.game, keys_text("still_winnable")) is None:  # played on meanwhile
        screen.notify(f"About the position after move {moves_then}: " + answer_text(found, seconds),
                      markup=False, timeout=12)
    screen.sync()


def cancel(screen: "GameScreen") -> None:
    """Leaving the round: stop the question."""
    running: Question | None = getattr(screen, "question", None)
    if running is not None:
        running.cancel()


__all__ = ["ask", "cancel", "ASK"]
