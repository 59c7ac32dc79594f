"""The key hold (``ui/key_hold.py``): keys typed while a screen changes wait for the screen
that comes and reach it in order; with no new screen they go, after the wait, to the one there."""

from __future__ import annotations

from textual import events

from spider_tui.ui.key_hold import KeyHold


class FakeScreen:
    def __init__(self, mounted: bool = True) -> None:
        self.is_mounted = mounted


class FakeTimer:
    def __init__(self, callback) -> None:
        self.callback, self.stopped = callback, False

    def stop(self) -> None:
        self.stopped = True


class FakeApp:
    """What the hold uses of an app: its screen, a repeating timer, after-refresh calls, posting."""

    def __init__(self) -> None:
        self.screen = FakeScreen()
        self.timers: list[FakeTimer] = []
        self.posted: list[events.Key] = []

    def set_interval(self, _seconds, callback) -> FakeTimer:
        timer = FakeTimer(callback)
        self.timers.append(timer)
        return timer

    def call_after_refresh(self, callback, *args) -> None:
        callback(*args)

    def post_message(self, message) -> None:
        self.posted.append(message)

    def tick(self) -> None:
        for timer in self.timers:
            if not timer.stopped:
                timer.callback()


def key(k: str) -> events.Key:
    return events.Key(k, k if len(k) == 1 else None)


def test_keys_wait_for_the_new_screen_and_reach_it_in_order():
    app, now = FakeApp(), [0.0]
    hold = KeyHold(app, seconds=1.0, clock=lambda: now[0])
    hold.start()
    assert hold.take(key("n")) and hold.take(key("question_mark"))
    app.tick()
    assert app.posted == []  # the same screen, no time gone: still held
    app.screen = FakeScreen(mounted=False)  # the new screen is current, still composing
    app.tick()
    assert app.posted == [] and hold.holding
    app.screen.is_mounted = True
    app.tick()
    assert [e.key for e in app.posted] == ["n", "question_mark"]
    assert not hold.holding and hold.take(key("x")) is False  # later keys go on as they are


def test_a_key_after_the_screen_is_up_goes_behind_the_held_ones():
    app, now = FakeApp(), [0.0]
    hold = KeyHold(app, clock=lambda: now[0])
    hold.start()
    hold.take(key("a"))
    app.screen = FakeScreen()  # up before the timer looked
    assert hold.take(key("b"))  # taken: posted again after "a"
    assert [e.key for e in app.posted] == ["a", "b"] and not hold.holding


def test_with_no_new_screen_the_keys_go_to_this_one_after_the_wait():
    app, now = FakeApp(), [0.0]
    hold = KeyHold(app, seconds=1.0, clock=lambda: now[0])
    hold.start()
    hold.take(key("u"))
    now[0] = 0.5
    app.tick()
    assert app.posted == []
    now[0] = 1.5
    app.tick()
    assert [e.key for e in app.posted] == ["u"] and not hold.holding


def test_a_hold_under_way_goes_on_and_nothing_is_held_without_one():
    app, now = FakeApp(), [0.0]
    hold = KeyHold(app, clock=lambda: now[0])
    assert hold.take(key("n")) is False
    hold.start()
    hold.start()
    assert len(app.timers) == 1
