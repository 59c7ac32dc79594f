"""Textual bindings made from the command table (``spider_tui/commands.py``)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from spider_tui.commands import Command


def bindings(commands: list[Command]) -> list[BindingType]:
    """A screen's ``BINDINGS``: one per command with keys, in the footer when ``footer``."""
    return [Binding(c.keys, c.action, c.label, show=c.footer, key_display=c.key_display) for c in commands if c.keys]
