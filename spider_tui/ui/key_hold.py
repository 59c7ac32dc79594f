"""Keys typed while a screen changes wait for the screen that comes (issue 22 item 2, issue 33 item 3).

A screen that asks the app for another one (a posted message, handled a moment later), or a
round replaced by the next (New at ``Moves: 0`` needs no question), would otherwise get the
keys typed meanwhile: ``n`` then ``?`` in one write gave the old screen's help, or the old
round's hint, instead of the new round's hint.  ``KeyHold.start`` begins a hold; every key
that arrives (``take``) waits until the new screen is mounted and drawn, then all of them go
to it in order, each posted again to go the whole way a typed key goes (the new screen's
bindings, or the input field it focuses).  A hold that sees no new screen within ``seconds``
hands the keys to the screen that is there.

The app routes its keys here from ``on_event`` (Textual's public hook, before any binding).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from textual import events


class KeyHold:
    """The key hold of one app (see the module doc).  ``clock`` is injected by tests."""

    def __init__(self, app: Any, seconds: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.seconds = seconds
        self.clock = clock
        self.held: list[events.Key] | None = None  # the keys held for the screen that is coming
        self._from: tuple[Any, float] = (None, 0.0)  # (the screen they were held from, since when)

    @property
    def holding(self) -> bool:
        return self.held is not None

    def start(self) -> None:
        """Keys typed from now on wait for the next screen (a hold under way goes on)."""
        if self.held is not None:
            return
        held: list[events.Key] = []
        self.held, self._from = held, (self.app.screen, self.clock())

        def check() -> None:
            if self.held is not held:  # a key found the screen up and took them along
                timer.stop()
            elif self.over():
                timer.stop()
                self.app.call_after_refresh(self._release, held)  # once it is drawn, too

        timer = self.app.set_interval(0.01, check)

    def over(self) -> bool:
        """The new screen is mounted (its widgets are there: a key given to a screen still
        composing found no '#info'); or no new screen came in ``seconds``: this one takes them."""
        screen, since = self._from
        new, waited = self.app.screen, self.clock() - since
        return (new is not screen and new.is_mounted) or (new is screen and waited > self.seconds) \
            or waited > 5 * self.seconds

    def _release(self, held: list[events.Key], *then: events.Key) -> None:
        """The keys of the hold ``held`` (if it still holds), then ``then``, each posted again.
        One that brings yet another screen ("n" on the start screen) holds the ones after it."""
        if self.held is not held:
            return
        self.held = None
        for event in (*held, *then):
            self.app.post_message(events.Key(event.key, event.character))

    def take(self, event: events.Key) -> bool:
        """A typed key: True when the hold took it (it goes no further now)."""
        held = self.held
        if held is None:
            return False
        if not self.over():
            held.append(event)  # for the screen that is coming
            return True
        if held:  # the screen is up and keys still wait: they go first, in order, then this one
            self._release(held, event)
            return True
        self.held = None  # the screen is up and nothing waits: this key goes on as it is
        return False
