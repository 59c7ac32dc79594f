"""The lessons (SPEC §15): every lesson can be played to its goal, the engine checks the goal,
and a line after which the goal can't be reached is caught."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from spider_tui.engine import IllegalMove
from spider_tui.lessons import Goal, LessonRun, load_lessons
from spider_tui.lessons.runner import CANT_FINISH, SEARCH_BUDGET, can_reach, parse_lesson

LESSONS = load_lessons()


def play(run: LessonRun, moves) -> list[str]:
    states = []
    for m in moves:
        if m == "undo":
            assert run.undo()
        else:
            states.append(run.play(m))
    return states


def test_at_least_seven_lessons_numbered_in_order():
    assert len(LESSONS) >= 7
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    assert len({lesson.key for lesson in LESSONS}) == len(LESSONS)


def test_the_spec_topics_in_order():
    titles = [lesson.title.lower() for lesson in LESSONS[:7]]
    for i, word in enumerate(["moving", "run", "empty column", "dealing", "suit", "scorpion", "points"]):
        assert word in titles[i], (i + 1, titles[i])
    assert LESSONS[5].game().rules.scorpion
    assert LESSONS[6].game().rules.scoring


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_task_is_one_line_and_success_one_or_two(lesson):
    assert lesson.task and "\n" not in lesson.task and len(lesson.task) <= 90
    assert 1 <= len(lesson.success) <= 2
    assert all(len(line) <= 110 for line in lesson.success)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_the_solution_reaches_the_goal_only_at_its_last_move(lesson):
    run = LessonRun(lesson)
    assert run.state == "playing" and run.status == lesson.task
    assert lesson.solution, "every lesson ships a line that solves it"
    assert not lesson.goal.reached(run.game)
    assert can_reach(run.game, lesson.goal) is True
    states = play(run, lesson.solution)
    assert states[-1] == "done"
    assert all(s == "playing" for s in states[:-1])
    assert lesson.goal.reached(run.game)
    assert run.status.startswith("Done! ") and lesson.success[0] in run.status


@pytest.mark.parametrize("lesson", [x for x in LESSONS if x.wrong], ids=lambda lesson: lesson.name)
def test_a_wrong_line_is_caught_and_undo_or_retry_recover(lesson):
    run = LessonRun(lesson)
    play(run, lesson.wrong[:-1])
    assert run.state == "playing"  # not before the line's last step
    play(run, lesson.wrong[-1:])
    assert run.state == "lost"
    assert run.status == CANT_FINISH
    assert "retry" in run.status.lower()
    if lesson.wrong[-1] != "undo":  # undo is free in a lesson: one step back and the goal is in reach
        assert run.undo()
        assert run.state == "playing"
    run.retry()
    assert run.state == "playing" and run.game.to_text() == lesson.game().to_text()
    assert play(run, lesson.solution)[-1] == "done"


def test_most_lessons_have_a_wrong_line():
    assert sum(1 for x in LESSONS if x.wrong) >= 5


def test_points_lesson_undo_costs_the_goal():
    """Lesson 7: every undo costs a point, so after one the full score is out of reach."""
    lesson = LESSONS[6]
    run = LessonRun(lesson)
    run.play(lesson.solution[0])
    score = run.game.score
    assert score is not None and score > 0
    run.undo()
    assert run.game.score == -1
    assert run.state == "lost"


def test_done_lesson_takes_no_more_moves():
    lesson = LESSONS[1]
    run = LessonRun(lesson)
    play(run, lesson.solution)
    with pytest.raises(IllegalMove):
        run.play("deal")
    assert not run.undo()


def test_scorpion_lesson_refuses_a_cross_suit_build():
    """Lesson 6 plays by Scorpion's rules: the 5♥ may not go on a 6♠ (classic allows it)."""
    run = LessonRun(LESSONS[5])
    assert "2>1" in [str(m)[:3] for m in run.game.legal_moves()]
    with pytest.raises(IllegalMove):
        run.play("1>3:1")  # a 7♠ into the empty column: only Kings go there


def test_goal_parse():
    assert Goal.parse("won") == Goal("won")
    assert Goal.parse("score 356") == Goal("score", 356)
    for bad in ("", "runs", "runs x", "won 3", "fly 1"):
        with pytest.raises(ValueError):
            Goal.parse(bad)


def test_a_lesson_file_without_a_task_names_the_fault():
    with pytest.raises(ValueError, match="task"):
        parse_lesson("09-x", "#: title: T\n#: goal: won\n#: success: S\nsuits: 1\n1: As\n")
    with pytest.raises(ValueError, match="09-x"):
        parse_lesson("09-x", "#: title: T\n#: task: t\n#: goal: won\n#: success: S\nsuits: 1\n1: Xs\n")


@pytest.mark.slow  # a search after every random move: ~10 s
@settings(max_examples=20, deadline=None)
@given(st.sampled_from(LESSONS), st.randoms(use_true_random=False))
def test_random_play_lost_means_lost_and_undo_to_the_start_recovers(lesson, rng):
    """Whatever is played: 'lost' is said only when a bigger search finds no way either, and
    undoing every move (free) brings the lesson back into play; in the points lesson, where
    an undo costs a point, retry does."""
    run = LessonRun(lesson)
    for _ in range(12):
        moves = run.game.legal_moves()
        if not moves or run.state == "done":
            break
        run.play(str(rng.choice(moves)))
        if run.state == "lost":
            assert can_reach(run.game, lesson.goal, budget=4 * SEARCH_BUDGET) is not True
    if run.state != "done":
        while run.undo():
            pass
        assert run.game.moves == 0
        if lesson.goal.kind == "score" and run.game.score:
            assert run.state == "lost"
            run.retry()
        assert run.state == "playing"
