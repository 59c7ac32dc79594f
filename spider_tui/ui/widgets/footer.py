"""The footer: Textual's, drawn with the screen's keys in the screen's first frame.

Textual's ``Footer`` composes empty and fills itself only after the screen publishes its
bindings, one refresh later: the first frame had a blank bottom row and a second paint followed
(~20 ms and ~0.6 KB at start, SPEC §11).  This one composes its keys at once, and rebuilds on a
bindings change only when the keys it shows (key, label, enabled, action) did change.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from spider_tui.i18n import pgettext


class Footer(TextualFooter):
    """Textual's footer with its keys in the first frame (see the module doc)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._bindings_ready = True  # Textual's Footer composes nothing until this is set
        self._shown_keys: tuple | None = None

    def shown_keys(self) -> tuple:
        """What the footer shows: (key, label, enabled, action) of each binding on show."""
        return tuple((key, active.binding.description, active.enabled, active.binding.action)
                     for key, active in self.screen.active_bindings.items() if active.binding.show)

    def compose(self):
        self._shown_keys = self.shown_keys()
        self._width = self.app.size.width
        room = self._width
        full = False
        for widget in super().compose():
            if isinstance(widget, FooterKey):  # the commands' labels are marked N_: said in the language spoken
                widget.description = pgettext("footer", widget.description)
                # The keys come most useful first: those that don't fit whole are left out (a key
                # cut at the edge read "q Qu"), and so is every one after the first left out.
                need = key_width(widget.key_display, widget.description)
                if full or need > room:
                    full = True
                    continue
                room -= need
                # Born with the footer's compactness: Textual's key starts compact and is then
                # bound to the footer's (not compact), each a restyle of the key and its parts
                # before the first frame (two thirds of the styling at start, SPEC §11).
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
    def fitting(self, width: int) -> int:
        """How many of the keys shown fit whole in ``width`` columns."""
        room, n, seen = width, 0, set()
        for active in self.screen.active_bindings.values():
            if not active.binding.show or active.binding.action in seen:
                continue  # one key per action shows (Textual's footer)
            seen.add(active.binding.action)
            need = key_width(self.app.get_key_display(active.binding), pgettext("footer", active.binding.description))
            if need > room:
                break
            room, n = room - need, n + 1
        return n

    def on_resize(self) -> None:
        width = self.app.size.width
        if width != getattr(self, "_width", width) and self.fitting(width) != self.fitting(self._width):
            self._width = width
            self.refresh(recompose=True)
        else:
            self._width = width

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and self.shown_keys() == self._shown_keys:
            return  # the same keys: rebuilding would repaint the row for nothing
        super().bindings_changed(screen)


def key_width(key: str, description: str) -> int:
    """Columns one key takes in the footer: " key description " (Textual's FooterKey padding)."""
    return len(key) + len(description) + (3 if description else 2)
