"""The yardstick of SPEC §11: a minimal Textual app (Header + Static + Footer).

`bench/run.py` starts it exactly as it starts `spider` (same interpreter, same pty, same
environment) and compares the time each takes to draw its first full frame.
"""

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, Static

TEXT = "minimal textual app ready"


class MinimalApp(App):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(TEXT)
        yield Footer()


if __name__ == "__main__":
    MinimalApp().run()
