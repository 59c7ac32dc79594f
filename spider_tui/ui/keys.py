"""Textual bindings made from the command table (``spider_tui/commands.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding, BindingType

from spider_tui.commands import Command


def bindings(commands: list[Command]) -> list[BindingType]:
    """A screen's ``BINDINGS``: one per command with keys, in the footer when ``footer``."""
    return [Binding(c.keys, c.action, c.label, show=c.footer, key_display=c.key_display) for c in commands if c.keys]


class KeysFollow:
    """Mixed into a screen that asks the app for another screen (a posted message, handled a
    moment later): the app holds the keys typed meanwhile and hands them, in order, to the screen
    that comes next, so "n" then "?" typed fast gives the new round's hint, not this screen's help
    (the app's ``hold_keys``; an app without one just takes the keys as they come)."""

    if TYPE_CHECKING:  # a mixin: the screen it is mixed into has these
        app: Any

        def post_message(self, message: Any) -> bool: ...

    def leave_for(self, message: Any) -> None:
        """Post ``message`` (it brings another screen); keys typed from now on wait for that screen."""
        hold = getattr(self.app, "hold_keys", None)
        if hold is not None:
            hold()
        self.post_message(message)
