"""Dialogs drawn over the table, which stays visible behind them (SPEC §11: opening or closing a
dialog writes ≤ 8 KB).

A dialog is an ``Overlay`` widget.  On the table screen it is mounted on the screen's ``dialog``
layer at a computed place, so the terminal gets only the dialog's own cells when it opens and
only the cells under it when it closes (a screen of its own would repaint the whole terminal
both ways).  Elsewhere (the start screen) the same widget sits in a ``DialogScreen``.  Keys go
to the dialog through its host's ``on_key``: no focus change, so the footer is not rebuilt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from textual import events
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget


class Dialog:
    """What every dialog does: ``KEYS`` maps a key to the result it closes with (``"*"``: any
    other key); ``want_size`` says the cells it takes; ``close`` hands the result to ``done``."""

    KEYS: ClassVar[dict[str, object]] = {}

    if TYPE_CHECKING:  # a mixin: the widget it is mixed into has these
        screen: Any

        def add_class(self, *class_names: str, update: bool = True) -> Any: ...

    def setup(self, done: Callable[[object], None] | None) -> None:
        self.add_class("box", "dialog")
        self.done = done
        self.closed = False

    def want_size(self, width: int, height: int) -> tuple[int, int]:
        """Cells (columns, rows) this dialog takes on a ``width`` × ``height`` screen."""
        return min(width, 56), min(height, 8)

    def press(self, key: str) -> bool:
        """A key while the dialog is open; True when it was used."""
        if key in self.KEYS:
            self.close(self.KEYS[key])
            return True
        if "*" in self.KEYS:
            self.close(self.KEYS["*"])
            return True
        return False

    def action_close(self, result: object = None) -> None:
        self.close(result)

    def close(self, result: object = None) -> None:
        if self.closed:
            return  # a double click on a chip closes once
        self.closed = True
        host = self.screen
        if hasattr(host, "close_dialog"):
            host.close_dialog(self, result)


DIALOG_CSS = """
    height: auto; padding: 0 1; border: round $accent; background: $surface;
"""


class Overlay(Dialog, Vertical):
    """A dialog with widgets inside (text and chips)."""

    DEFAULT_CSS = "Overlay {" + DIALOG_CSS + "} Overlay Horizontal { height: 1; margin-top: 1; }"

    def __init__(self, done: Callable[[object], None] | None = None, **kw) -> None:
        super().__init__(**kw)
        self.setup(done)


class TextDialog(Dialog, Widget):
    """A dialog that draws itself (``render``): one widget, painted once when it opens."""

    DEFAULT_CSS = "TextDialog {" + DIALOG_CSS + "}"

    def __init__(self, done: Callable[[object], None] | None = None, **kw) -> None:
        super().__init__(**kw)
        self.setup(done)


class DialogScreen(ModalScreen[object]):
    """Hosts an ``Overlay`` where there is no table to draw it over (the start screen)."""

    DEFAULT_CSS = "DialogScreen { align: center middle; }"

    def __init__(self, dialog: Dialog) -> None:
        super().__init__()
        self.dialog = dialog

    def compose(self):
        w, h = self.dialog.want_size(*self.app.size)
        self.dialog.styles.width, self.dialog.styles.height = w, h
        yield self.dialog

    def on_key(self, event: events.Key) -> None:
        if self.dialog.press(event.key):
            event.stop()
            event.prevent_default()

    def close_dialog(self, dialog: Overlay, result: object) -> None:
        self.dismiss(result)
