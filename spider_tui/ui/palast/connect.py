"""Getting to the Palast (SPEC §13): the server address (the last one used is offered), the name
at the first visit (checked as §13 says), then the lobby.  The token the server gives is kept in
the save file per server.  A server that can't be reached, says no or speaks another protocol
gets one quiet line here; Esc goes back.

A server that can't be reached brings a question: play here instead?  Yes starts the embedded
Palast (``spider_tui.palast.embedded``: a server on this computer with house bots, stopped with
the app) and signs in there; its login is kept under ``embedded.LOGIN_KEY``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from spider_tui.palast.client.session import PalastError, PalastSession, Unreachable
from spider_tui.palast.protocol import name_problem
from spider_tui.palast import embedded
from spider_tui.safe_text import visible
from spider_tui.store.book import SaveBook
from spider_tui.store.palast import DEFAULT_SERVER, last_server, put_login, server_login
from spider_tui.ui.render import Look
from spider_tui.ui.widgets.footer import Footer


#: What the token is and where it lives, shown with its field when the name is taken.
TOKEN_HELP = ("This name is taken at this Palast. If it is yours from another machine or data dir: "
              "the token the Palast gave you there is in that spider's save.toml (its data dir), "
              "under [palast], as token = \"...\". Paste it here, or pick another name.")


def name_taken(reason: str) -> bool:
    """Is the server's refusal the one for a name someone already signed in with?"""
    return "name is taken" in reason.casefold()


#: Added when nothing answers at the default address: what a newcomer can do about it.
NOBODY_AT_DEFAULT = (" No Palast runs on this machine: start one with `spider server` in another terminal, "
                     "or ask the Palast's host for its address (ws://host:port) and type it above.")


class ConnectScreen(Screen):
    """The server and the name; the login the server gives is kept in the save book."""

    BINDINGS = [Binding("escape", "back", "Back")]
    # The address is filled in (the last one used, or the default) and keeps its text, unselected:
    # the name is what a newcomer types first, from the first key on (typed ahead, it went into
    # the address).
    AUTO_FOCUS = "#c-name"
    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen > Vertical { width: 64; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    ConnectScreen #c-status { color: #f0e6b0; height: auto; }
    ConnectScreen .-token { display: none; }
    ConnectScreen.-ask-token .-token { display: block; }
    """

    def __init__(self, book: SaveBook, look: Look, url: str | None = None, *,
                 here: embedded.EmbeddedPalast | None = None) -> None:
        super().__init__()
        self.book = book
        self.look = look
        self.url = url
        self.here_palast = here  # the Palast on this computer, offered when the server can't be reached
        self.busy = False
        self.here = False  # signing in to the embedded Palast

    def compose(self) -> ComposeResult:
        data = self.book.data
        url = self.url or last_server(data) or DEFAULT_SERVER
        login = server_login(data, url) or server_login(data, embedded.LOGIN_KEY)  # the name used here
        with Vertical():
            yield Static("The Palast: race others live on the same deal.", markup=False)
            yield Static("Server", markup=False)
            yield Input(url, id="c-server", max_length=200)
            yield Static("Your name (1-16 letters, digits, space, - _ .)", markup=False)
            yield Input(login[0] if login else "", id="c-name", max_length=16)
            # Shown when the server says the name is taken (see TOKEN_HELP).
            yield Static(TOKEN_HELP, id="c-token-help", markup=False, classes="-token")
            yield Input("", id="c-token", max_length=200, password=True, classes="-token")
            yield Static("Enter: go · Esc: back", markup=False)
            yield Static("", id="c-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        data = self.book.data
        url = self.query_one("#c-server", Input).value
        if self.url is not None and server_login(data, url):
            self.call_later(self.go)  # spider --server URL with a known name: straight to the lobby

    def say(self, text: str) -> None:
        """One status line; it may hold a server's words or a typed address: shown ``visible``."""
        self.query_one("#c-status", Static).update(visible(text, newlines=False))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "c-server" and not self.query_one("#c-name", Input).value.strip():
            self.query_one("#c-name", Input).focus()
            return
        await self.go()

    async def go(self) -> None:
        if self.busy:
            return
        url = self.query_one("#c-server", Input).value.strip()
        name = self.query_one("#c-name", Input).value.strip()
        if not url.startswith(("ws://", "wss://")):
            self.say("The server address starts with ws:// or wss:// (like ws://127.0.0.1:8765).")
            return
        problem = name_problem(name)
        if problem:
            self.say(problem)
            self.query_one("#c-name", Input).focus()
            return
        here = self.here and self.here_palast is not None and url == self.here_palast.url
        key = embedded.LOGIN_KEY if here else url
        login = server_login(self.book.data, key)
        token = login[1] if login and login[0].casefold() == name.casefold() else None
        typed = self.query_one("#c-token", Input).value.strip()
        if typed:
            token = typed  # the token from the other machine's save file
        self.busy = True
        self.say(f"Connecting to {url}…")
        session = PalastSession(url, name, token)
        try:
            await session.start()
        except PalastError as e:
            self.say(str(e) + (NOBODY_AT_DEFAULT if url == DEFAULT_SERVER and isinstance(e, Unreachable) else ""))
            if name_taken(str(e)):
                self.add_class("-ask-token")
                self.query_one("#c-token", Input).focus()
            if str(e).startswith("Can't reach") and not here and self.here_palast is not None:
                self.app.push_screen(PlayHere(str(e)), self._play_here)
            return
        finally:
            self.busy = False
        if here:
            self.book.write(lambda d: put_login(d, key, session.name, session.token or "", last=False))
        else:
            self.book.write(lambda d: put_login(d, url, session.name, session.token or ""))
        from spider_tui.ui.palast.lobby import PalastScreen

        self.app.switch_screen(PalastScreen(session, self.look))

    def _play_here(self, yes: bool | None) -> None:
        if yes:
            self.run_worker(self._start_here(), exclusive=True)

    async def _start_here(self) -> None:
        """Start the embedded Palast (in a worker thread: it takes a moment) and sign in there."""
        import asyncio

        self.busy = True
        self.say("Starting a Palast on this computer…")
        try:
            assert self.here_palast is not None
            url = await asyncio.to_thread(self.here_palast.start)
        except embedded.EmbeddedError as e:
            self.say(str(e))
            return
        finally:
            self.busy = False
        self.here = True
        self.query_one("#c-server", Input).value = url
        login = server_login(self.book.data, embedded.LOGIN_KEY)
        name_input = self.query_one("#c-name", Input)
        if login and not name_input.value.strip():
            name_input.value = login[0]
        await self.go()

    def action_back(self) -> None:
        self.dismiss()


class PlayHere(ModalScreen[bool]):
    """The server can't be reached: play on a Palast on this computer instead?  y/Enter: yes."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Play here"), Binding("n,escape", "answer(False)", "No")]
    DEFAULT_CSS = """
    PlayHere { align: center middle; }
    PlayHere > Vertical { width: 60; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.reason, markup=False)
            yield Static(HERE_QUESTION, markup=False)
            yield Static("y / Enter: play here · n / Esc: no", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


HERE_QUESTION = ("Play here instead? A Palast starts on this computer (only for you; it stops with the "
                 "app), and house bots race you when nobody else sits down.")
