"""The footer: the screen's keys on the bottom row, one widget drawn line by line.

Textual's ``Footer`` is a scrolling container with a ``FooterKey`` widget per key: each one
composed, styled (with two component styles of its own), laid out and rendered, about 0.6 M
bytecodes of a start's ~7.8 M (SPEC §11).  This footer is one widget with Textual's Line API
that draws the same row: each key as ``FooterKey`` draws it (`` key `` in the key's style,
``description `` in the description's, over the key's background), then the footer's
background.  The looks come from the same CSS (the component classes below, with Textual's
footer variables): a key under the mouse, a disabled key (dim) and a dialog's muted table
(``GameScreen.-dim`` in ``app.tcss``).  A press on a key types it, as Textual's does (a disabled
one rings the bell).

It is drawn with its keys in the screen's first frame (Textual's composes empty and fills itself
one refresh later: a blank bottom row, then a second paint), and the keys come most useful first:
those that don't fit whole are left out (a key cut at the edge read "q Qu"), and so is every one
after the first left out.  One key per action shows (Textual's footer), and the commands'
labels are said in the language spoken (marked ``N_``, shown with ``pgettext("footer", …)``).
"""

from __future__ import annotations

from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.color import Color
from textual.css.styles import StylesBase
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from spider_tui.i18n import pgettext


class FooterItem(NamedTuple):
    """One key as the footer shows it: the key to type, how it is written, its label, its
    action, whether it is lit, and the cells it takes (``x``, ``width``) from the left edge."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool
    x: int
    width: int


class Footer(Widget, can_focus=False):
    """The screen's keys on one row (see the module doc)."""

    ALLOW_SELECT = False
    # Textual's FooterKey as component classes: "footer-key" is the key's own look (its
    # background), "-hover" and "-disabled" what Textual's :hover and .-disabled add to it,
    # and the key and description parts as FooterKey styles them (not compact: padding 0 1
    # and 0 1 0 0, which key_width counts).
    COMPONENT_CLASSES = {
        "footer-key", "footer-key--hover", "footer-key--disabled",
        "footer-key--key", "footer-key--description",
    }
    DEFAULT_CSS = """
    Footer {
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        & > .footer-key { background: $footer-item-background; }
        & > .footer-key--hover { color: $footer-key-foreground; background: $block-hover-background; }
        & > .footer-key--disabled { text-style: dim; }
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.auto_links = False
        self._items: tuple[FooterItem, ...] | None = None
        self._items_key: tuple | None = None
        self._mouse_x: int | None = None  # where the mouse is over the footer, if it is

    # ------------------------------------------------------------------ the keys
    def shown_keys(self) -> tuple:
        """What the footer shows: (key, label, enabled, action) of each binding on show."""
        return tuple((key, active.binding.description, active.enabled, active.binding.action)
                     for key, active in self.screen.active_bindings.items() if active.binding.show)

    def items(self) -> tuple[FooterItem, ...]:
        """The keys drawn now, in order, each with where it is."""
        shown, width = self.shown_keys(), self.size.width or self.app.size.width
        key = (shown, width)
        if self._items is None or key != self._items_key:
            self._items_key, self._items = key, self._place(width)
        return self._items

    def _place(self, width: int) -> tuple[FooterItem, ...]:
        out: list[FooterItem] = []
        room, x, seen = width, 0, set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or binding.action in seen:
                continue  # one key per action shows (Textual's footer)
            seen.add(binding.action)
            # the commands' labels are marked N_: said in the language spoken
            shown, description = self.app.get_key_display(binding), pgettext("footer", binding.description)
            need = key_width(shown, description)
            if need > room:
                break  # this one and every one after it are left out
            drawn = need if description else len(shown)  # FooterKey pads a key only beside its label
            out.append(FooterItem(binding.key, shown, description, binding.action, active.enabled, x, drawn))
            room, x = room - need, x + drawn
        return tuple(out)

    def fitting(self, width: int) -> int:
        """How many of the keys shown fit whole in ``width`` columns."""
        return len(self._place(width))

    def item_at(self, x: int) -> int | None:
        """The index of the key drawn at ``x`` (None: beside the keys)."""
        for i, item in enumerate(self.items()):
            if item.x <= x < item.x + item.width:
                return i
        return None

    def key_region(self, index: int) -> Region:
        """Where the ``index``-th key is on the screen."""
        item, r = self.items()[index], self.region
        return Region(r.x + item.x, r.y, item.width, 1)

    def bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen and self._items_key is not None and self.shown_keys() != self._items_key[0]:
            self.refresh()  # other keys, labels or lit keys: the row is drawn again

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    # ------------------------------------------------------------------ drawing
    def _layered(self, layers: list[StylesBase]) -> Style:
        """``DOMNode.rich_style`` of a node below this one made of ``layers`` (the key, then one
        of its parts): the backgrounds laid over each other, the last colour, the text styles."""
        background = Color(0, 0, 0, 0)
        color = Color(255, 255, 255, 0)
        style = Style()
        opacity = 1.0
        for styles in [node.styles for node in reversed(self.ancestors_with_self)] + layers:
            has_rule = styles.has_rule
            opacity *= styles.opacity
            if has_rule("background"):
                text_background = background + styles.background.tint(styles.background_tint)
                background += styles.background.tint(styles.background_tint).multiply_alpha(opacity)
            else:
                text_background = background
            if has_rule("color"):
                color = styles.color
            style += styles.text_style
            if has_rule("auto_color") and styles.auto_color:
                color = text_background.get_contrast_text(color.a)
        return style + Style.from_color(
            (background + color).rich_color if (background.a or color.a) else None,
            background.rich_color if background.a else None,
        )

    def _key_styles(self, hover: bool, enabled: bool) -> tuple[Style, Style]:
        """The key's and the description's styles, as ``FooterKey.render`` gives them: each part
        over the key's own style."""
        names = ["footer-key"] + (["footer-key--hover"] if hover else []) + ([] if enabled else ["footer-key--disabled"])
        key_layer = self.get_component_styles(*names)
        own = self._layered([key_layer])
        return (own + self._layered([key_layer, self.get_component_styles("footer-key--key")]),
                own + self._layered([key_layer, self.get_component_styles("footer-key--description")]))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        segments: list[Segment] = []
        styles: dict[tuple[bool, bool], tuple[Style, Style]] = {}
        x = 0
        hover = None if self._mouse_x is None else self.item_at(self._mouse_x)
        for i, item in enumerate(self.items()):
            state = (i == hover, item.enabled)
            if state not in styles:
                styles[state] = self._key_styles(*state)
            key_style, description_style = styles[state]
            if item.description:
                segments.append(Segment(f" {item.key_display} ", key_style))
                segments.append(Segment(f"{item.description} ", description_style))
            else:
                segments.append(Segment(item.key_display, key_style))
            x = item.x + item.width
        if width > x:  # the rest of the row: the footer's background, as Textual fills a widget
            base_background, background = self.background_colors
            segments.append(Segment(" " * (width - x), Style(bgcolor=(base_background + background).rich_color)))
        return Strip(segments).crop(0, width)

    # ------------------------------------------------------------------ the mouse
    def _hover_at(self, x: int | None) -> None:
        """The mouse is at ``x`` (None: it left): the key under it is lit as Textual's
        ``FooterKey:hover``, with the pointer shape it asks for."""
        old = None if self._mouse_x is None else self.item_at(self._mouse_x)
        self._mouse_x = x
        index = None if x is None else self.item_at(x)
        if index != old:
            self.styles.pointer = "default" if index is None else "pointer"
            self.screen.update_pointer_shape()
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover_at(event.x)

    def on_leave(self) -> None:
        self._hover_at(None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self.item_at(event.x)
        if index is None:
            return
        item = self.items()[index]
        if item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()


def key_width(key: str, description: str) -> int:
    """Columns one key takes in the footer: " key description " (Textual's FooterKey padding)."""
    return len(key) + len(description) + (3 if description else 2)
