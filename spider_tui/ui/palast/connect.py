"""Getting to the Palast (SPEC §13): the server address (the last one used is offered), the name
at the first visit (checked as §13 says), then the lobby.  The token the server gives is kept in
the save file per server.  A server that can't be reached, says no or speaks another protocol
gets one quiet line here (our own words, never the operating system's); Esc goes back.

One step in the common case (issue 33 item 8): when the last Palast used is remembered with its
login, "Palast (p)" goes straight there: the Palast on this computer is started again and signed
in to with the remembered name, a remembered server is connected to.  The form is for a first
visit, or for when that failed (it says why).

A server that can't be reached brings a question: play here instead?  Yes starts the embedded
Palast (``spider_tui.palast.embedded``: a server on this computer with house bots, stopped with
the app) and signs in there; its login is kept under ``embedded.LOGIN_KEY``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from spider_tui.commands import PALAST_CONNECT_COMMANDS, PALAST_PLAY_HERE_COMMANDS
from spider_tui.i18n import N_, _
from spider_tui.palast.client.session import PalastError, PalastSession, Unreachable
from spider_tui.palast.messages import Code
from spider_tui.palast.protocol import name_problem
from spider_tui.palast import embedded
from spider_tui.safe_text import visible
from spider_tui.store.book import SaveBook
from spider_tui.store.palast import DEFAULT_SERVER, last_server, last_was_here, put_login, server_login
from spider_tui.ui.keys import bindings
from spider_tui.ui.render import Look
from spider_tui.ui.widgets.footer import Footer


#: What the token is and where it lives, shown with its field when the name is taken.
TOKEN_HELP = N_("This name is taken at this Palast. If it is yours from another machine or data dir: "
              "the token the Palast gave you there is in that spider's save.toml (its data dir), "
              "under [palast], as token = \"...\". Paste it here, or pick another name.")  # shown through _()


#: Added when nothing answers at the default address: what a newcomer can do about it.
NOBODY_AT_DEFAULT = N_(" No Palast runs on this machine: start one with `spider server` in another terminal, "
                     "or ask the Palast's host for its address (ws://host:port) and type it above.")  # shown through _()


class ConnectScreen(Screen):
    """The server and the name; the login the server gives is kept in the save book."""

    BINDINGS = bindings(PALAST_CONNECT_COMMANDS)
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
    ConnectScreen.-auto .-form { display: none; }
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
        if self.url is None and last_was_here(data):  # the name used at the Palast here comes first
            login = server_login(data, embedded.LOGIN_KEY)
        with Vertical():
            yield Static(_("The Palast: race others live on the same deal."), markup=False)
            # The form; hidden while "Palast (p)" goes straight to the Palast last used (-auto).
            yield Static(_("Server"), markup=False, classes="-form")
            yield Input(url, id="c-server", max_length=200, classes="-form")
            yield Static(_("Your name (1-16 letters, digits, space, - _ .)"), markup=False, classes="-form")
            yield Input(login[0] if login else "", id="c-name", max_length=16, classes="-form")
            # Shown when the server says the name is taken (see TOKEN_HELP).
            yield Static(_(TOKEN_HELP), id="c-token-help", markup=False, classes="-token")
            yield Input("", id="c-token", max_length=200, password=True, classes="-token")
            yield Static(_("Enter: go · Esc: back"), markup=False, classes="-form")
            yield Static("", id="c-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        data = self.book.data
        url = self.query_one("#c-server", Input).value
        if self.url is None and last_was_here(data) and self.here_palast is not None:
            self.add_class("-auto")  # only the status line until it answers (the form if it fails)
            self.run_worker(self._start_here(), exclusive=True)  # the Palast here, as last time
        elif server_login(data, url) and (self.url is not None or last_server(data) == url):
            self.add_class("-auto")
            self.connect()  # a known name at the given or last server: straight to the lobby

    def say(self, text: str) -> None:
        """One status line; it may hold a server's words or a typed address: shown ``visible``."""
        self.query_one("#c-status", Static).update(visible(text, newlines=False))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "c-server" and not self.query_one("#c-name", Input).value.strip():
            self.query_one("#c-name", Input).focus()
            return
        self.connect()

    def connect(self) -> None:
        """Sign in off the screen's message queue, so Esc goes back at once however long the
        server takes to answer (a connection waits up to 10 s)."""
        self.run_worker(self.go(), group="connect")

    async def go(self) -> None:
        if self.busy:
            return
        url = self.query_one("#c-server", Input).value.strip()
        name = self.query_one("#c-name", Input).value.strip()
        if not url.startswith(("ws://", "wss://")):
            self.say(_("The server address starts with ws:// or wss:// (like ws://127.0.0.1:8765)."))
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
        self.say(_("Connecting to {url}…").format(url=url))
        session = PalastSession(url, name, token)
        try:
            await session.start()
            if not self.is_current:  # Esc while it connected: the player left this screen
                await session.close()
                return
        except PalastError as e:
            if not self.is_current:
                return
            self.remove_class("-auto")  # it failed: the form, with why
            self.say(str(e) + (_(NOBODY_AT_DEFAULT) if url == DEFAULT_SERVER and isinstance(e, Unreachable) else ""))
            if e.code is Code.NAME_TAKEN:
                self.add_class("-ask-token")
                self.query_one("#c-token", Input).focus()
            if e.code is Code.UNREACHABLE and not here and self.here_palast is not None:
                self.app.push_screen(PlayHere(str(e)), self._play_here)
            return
        finally:
            self.busy = False
        # The last Palast used, the one here too (under its key): the next "Palast (p)" goes
        # straight back to it.
        self.book.write(lambda d: put_login(d, key, session.name, session.token or ""))
        from spider_tui.ui.palast.lobby import PalastScreen

        self.app.switch_screen(PalastScreen(session, self.look))

    def _play_here(self, yes: bool | None) -> None:
        if yes:
            self.run_worker(self._start_here(), exclusive=True)

    async def _start_here(self) -> None:
        """Start the embedded Palast (in a worker thread: it takes a moment) and sign in there."""
        import asyncio

        self.busy = True
        self.say(_("Starting a Palast on this computer…"))
        try:
            assert self.here_palast is not None
            url = await asyncio.to_thread(self.here_palast.start)
        except embedded.EmbeddedError as e:
            if self.is_current:
                self.remove_class("-auto")
                self.say(str(e))
            return
        finally:
            self.busy = False
        if not self.is_current:  # Esc while it started: it stays up (for the next visit), unused
            return
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

    BINDINGS = bindings(PALAST_PLAY_HERE_COMMANDS)
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
            yield Static(_(HERE_QUESTION), markup=False)
            yield Static(_("y / Enter: play here · n / Esc: no"), markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


HERE_QUESTION = N_("Play here instead? A Palast starts on this computer (only for you; it stops with the "
                 "app), and house bots race you when nobody else sits down.")  # shown through _()
