"""The Palast screen (SPEC §13, §16): the lobby's tables (join by Enter or click, or by invite code,
open a table, watch one), the League, Today (the daily board and its try), the seat while waiting
(Start, Leave), the round standings (Ready, play it alone, the round's records) and the final
ranking, and a watched table's lines.  It renders the session; the race has its own screen."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from spider_tui.commands import PALAST_ASK_COMMANDS, PALAST_COMMANDS, PALAST_OPEN_COMMANDS, command, keys_text
from spider_tui.i18n import _, ngettext
from spider_tui.palast import messages as m
from spider_tui.palast.client.session import DAILY_DEAL_LATER, PalastSession
from spider_tui.store.book import playable_rules
from spider_tui.ui import messages
from spider_tui.ui.keys import bindings
from spider_tui.ui.palast import lines
from spider_tui.ui.palast.open_form import OpenForm
from spider_tui.ui.palast.race import RaceScreen
from spider_tui.ui.render import Look
from spider_tui.ui.widgets.footer import Footer

def key(action: str) -> str:
    """The key of a Palast command, as the lines here name it."""
    return keys_text(action, PALAST_COMMANDS)


def says(action: str) -> str:
    """``key: what it does`` of a Palast command."""
    return f"{key(action)}: {_(command(action, PALAST_COMMANDS).help)}"


def lobby_keys() -> str:
    """The lobby's line of keys, in the language spoken."""
    return " · ".join([_("Enter/click: sit down")] + [says(a) for a in ("watch", "code", "open_table", "league", "today",
                                                                        "quit_palast")])


LOBBY_KEYS = lobby_keys()  # in English (the language at import); the lobby asks lobby_keys()


class PalastScreen(Screen):
    """Everything at the Palast but the race itself."""

    BINDINGS = bindings(PALAST_COMMANDS)
    DEFAULT_CSS = """
    PalastScreen #p-head { height: 1; background: #16291f; color: #f0e6b0; padding: 0 1; }
    PalastScreen #p-title { height: auto; padding: 0 1; text-style: bold; }
    PalastScreen #p-list { height: 1fr; border: none; padding: 0 1; }
    PalastScreen #p-info { height: auto; padding: 0 1; }
    PalastScreen #p-status { height: auto; color: #f0e6b0; padding: 0 1; }
    """

    def __init__(self, session: PalastSession, look: Look) -> None:
        super().__init__()
        self.session = session
        self.look = look
        self.show_league = False
        self.show_today = False  # the lobby's "Today": the daily board (SPEC §16)
        self.show_records = False  # the standings' "watch": the table's records (SPEC §16)
        self._shown: dict[str, object] = {}
        self._race_screen: RaceScreen | None = None  # the RaceScreen while it is up
        self._leave_asked = False  # x once at a running table: the question is on the info line

    def compose(self) -> ComposeResult:
        yield Static("", id="p-head", markup=False)
        yield Static("", id="p-title", markup=False)
        yield OptionList(id="p-list", markup=False)
        yield Static("", id="p-info", markup=False)
        yield Static("", id="p-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.session.on_change = self.palast_changed
        self.set_interval(2.0, self.poll)
        self.render_phase()
        if self.session.race is not None and self.session.phase == "race":
            self.call_later(self.action_to_table)

    def on_screen_resume(self) -> None:
        self._race_screen = None
        self.render_phase()

    async def poll(self) -> None:
        """The lobby refreshes itself while it is on screen."""
        if self.is_current and self.session.phase == "watching":
            self.render_phase()  # the watched round's countdown
        elif self.is_current and self.session.phase == "lobby" and not self.session.offline:
            if self.show_league:
                await self.session.load_league()
            elif self.show_today:
                await self.session.load_daily()
            else:
                await self.session.refresh()

    # ------------------------------------------------------------------ the session changed
    def palast_changed(self, what: str) -> None:
        s = self.session
        race = self._race_screen
        if what == "round":
            self.show_records = False  # a new round: its standings come back, not the old records
            if race is not None and race.is_current:
                race.dismiss()
            self.call_later(self.action_to_table)
            return
        if race is not None and race.is_attached:
            if what in ("standings", "final"):
                race.dismiss()
                self._race_screen = None
                note = s.notes.get(s.standings.round) if s.standings is not None else None
                if note:  # said on the race's status line as it closed: said here too
                    self.put("#p-status", note)
            else:
                race.palast_changed(what)
                return
        if what == "status":
            self.put("#p-status", s.status)
        elif what == "offline":
            self.put("#p-status", s.offline_status)
        elif what == "online":
            self.put("#p-status", "")
        self.render_phase()

    def put(self, selector: str, text: str) -> None:
        if self._shown.get(selector) != text:
            self._shown[selector] = text
            self.query_one(selector, Static).update(text)

    def set_options(self, options: list[tuple[str, str]]) -> None:
        key = tuple(options)
        if self._shown.get("#p-list") == key:
            return
        self._shown["#p-list"] = key
        ol = self.query_one("#p-list", OptionList)
        highlighted = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(text, id=oid) for oid, text in options])
        if options:
            ol.highlighted = min(highlighted or 0, len(options) - 1)

    def render_phase(self) -> None:
        s = self.session
        phase = s.phase
        self._leave_asked = False  # the info line is drawn again: a question there is gone
        where = lines.name(s.url, 40)
        self.put("#p-head", f"Palast {where} · {lines.name(s.name, 16)}" + (" · " + _("offline") if s.offline else ""))
        if phase not in ("standings", "final", "watching") or s.records is None:
            self.show_records = False
        if phase != "lobby":
            self.show_today = False
        if self.show_records and s.records is not None:
            self.render_records()
        elif phase == "watching":
            self.render_watching()
        elif phase == "lobby" and self.show_today:
            self.render_today()
        elif phase == "lobby" and self.show_league:
            self.put("#p-title", lines.league_header())
            self.set_options([(f"p{i}", lines.league_row(i, p)) for i, p in enumerate(s.league, 1)])
            self.put("#p-info", _("League: rating from finished tables (Training does not count). {key}: tables").format(
                key=key("league")) + f" · {says('quit_palast')}")
        elif phase == "lobby":
            narrow = self.narrow  # the compact table's width (SPEC §17): rows of 38 columns
            self.put("#p-title", lines.lobby_header_narrow() if narrow else lines.lobby_header())
            row = lines.lobby_row_narrow if narrow else lines.lobby_row
            self.set_options([(str(t.id), row(t)) for t in s.tables])
            more = ("\n" + _("{shown} of {total} tables shown: yours and those waiting for players first.").format(
                shown=len(s.tables), total=s.tables_total) if s.tables_total > len(s.tables) else "")
            self.put("#p-info", lobby_keys() + ("" if s.tables else "\n" + _("No tables yet.")) + more)
        elif phase == "waiting" and s.table is not None:
            t = s.table
            self.put("#p-title", _("Table {id} · waiting for players").format(id=t.id))
            self.set_options([(f"s{i}", f"{i}. {lines.name(p, 16)}" + ("  " + _("(host)") if p == t.host else ""))
                              for i, p in enumerate(t.players, 1)])
            code = " · " + _("invite code {code}").format(code=lines.name(s.code, 12)) if s.code else ""
            seated = _("(at least two seated, or alone at Training)") if t.training else _("(at least two seated)")
            host = (f"{says('start')} {seated} · "
                    if s.is_host else (start_line(t) if t.standard else _("The host starts the table.") + " "))
            self.put("#p-info", f"{self.describe(t)}{code}\n{host}{says('leave_table')}")
        elif phase == "race":
            self.put("#p-title", _("Round {round} is in play").format(round=s.round))
            self.set_options([])
            self.put("#p-info", _("Your seat and the clock go on.") + f" {says('to_table')}")
        elif phase == "standings" and s.standings is not None and s.table is not None:
            st, t = s.standings, s.table
            narrow = self.narrow
            self.put("#p-title", lines.standings_header_narrow() if narrow else lines.standings_header())
            standing = lines.standings_row_narrow if narrow else lines.standings_row
            self.set_options([(f"r{i}", standing(r)) for i, r in enumerate(st.standings)])
            ready = ready_line(s.ready_sent, t.between_seconds)
            told = dict(s.deals).get(st.round)
            stopped = any(r.state == "stopped" for r in st.standings)
            if told is None and s.is_daily(st.round):
                round_line = _("Round {round}/{rounds} · the deal code is told when the day is over").format(
                    round=st.round, rounds=t.rounds)
            else:
                round_line = _("Round {round}/{rounds} · deal {deal}").format(
                    round=st.round, rounds=t.rounds, deal=told if told is not None else "?")
                round_line += f" · {says('alone')}" if told is not None else ""
            self.put("#p-info", f"{round_line} · {says('records')}\n{ready}"
                     + (f"\n{_(lines.STOPPED_NOTE)}" if stopped else ""))
        elif phase == "final":
            words = lines.final_words(s.ranking or [], s.name, s.table is not None and s.table.training)  # said to the player
            if s.is_daily():  # a one-seat daily try wins nothing: its place is on today's board
                words = _("Your try is on today's board ({key}).").format(key=key("today"))
            self.put("#p-title", _("Final ranking") + f"{' · ' + words if words else ''}\n{lines.ranking_header()}")
            last = [(f"r{i}", lines.standings_row(r)) for i, r in enumerate(s.standings.standings)] \
                if s.standings is not None else []
            if s.standings is not None and last:
                last = [("gap", ""), ("round", _("Round {round}:").format(round=s.standings.round)),
                        ("head", lines.standings_header())] + last
            self.set_options([(f"k{i}", lines.ranking_row(r)) for i, r in enumerate(s.ranking or [])] + last)
            deals = ", ".join(_("round {round}: deal {deal}").format(round=r, deal=d) for r, d in s.deals)
            if not s.deals and s.is_daily():
                deals = _(DAILY_DEAL_LATER)
            alone = _("{key}: play the last deal alone").format(key=key("alone")) + " · " if s.deals else ""
            self.put("#p-info", f"{deals}\n{alone}{says('records')} · {says('back')}")
        self.refresh_bindings()

    def render_records(self) -> None:
        """The standings' "watch" (SPEC §16): every player's record of the table's finished
        rounds, newest round first; Enter opens one in the replay."""
        s = self.session
        table = s.records_of[0] if s.records_of is not None else "?"
        self.put("#p-title", _("Records of table {id}").format(id=table) + f"\n{lines.records_header()}")
        rows = [(f"rec{i}", lines.record_row(r, i)) for i, r in enumerate(s.records or [])]
        self.set_options(rows or [("none", _("No records in this round."))])
        self.put("#p-info", _("Enter/click: replay the record (the same table, step by step)") + " · "
                 + _("{key}: back").format(key=f"{key('records')}/{_('Esc')}"))

    def render_watching(self) -> None:
        """A table watched from the lobby (SPEC §16): its players' lines live, never a card; its
        standings after each round and its ranking at the end."""
        s = self.session
        w = s.watched
        assert w is not None
        t = w.table
        over = s.watch_over if s.watch_over is not None and s.watch_over.round >= s.watch_round else None
        head = _("Watching table {id}").format(id=t.id) + f" · {self.describe(t)}"
        if s.watch_ranking is not None:
            self.put("#p-title", head + "\n" + _("Final ranking") + f"\n{lines.ranking_header()}")
            self.set_options([(f"k{i}", lines.ranking_row(r)) for i, r in enumerate(s.watch_ranking)])
        elif over is not None:
            self.put("#p-title", head + "\n" + _("Round {round}/{rounds} is over").format(round=over.round, rounds=t.rounds)
                     + f"\n{lines.standings_header()}")
            self.set_options([(f"r{i}", lines.standings_row(r)) for i, r in enumerate(over.standings)])
        elif s.watch_round:
            left = s.watch_countdown()
            clock = " · " + _("{time} left").format(time=lines.clock(left)) if left is not None else ""
            self.put("#p-title", head + "\n" + _("Round {round}/{rounds} is in play").format(
                round=s.watch_round, rounds=t.rounds) + clock)
            scores = {x.player: x.score or 0 for x in s.watch_lines.values()}
            totals = lines.race_totals(s.watch_totals_before(), scores)
            self.set_options([(f"w{i}", lines.opponent_line(x, totals.get(x.player)))
                              for i, x in enumerate(s.watch_lines.values())])
        else:
            self.put("#p-title", head + "\n" + _("The table has not started yet."))
            self.set_options([(f"w{i}", lines.name(p, 16)) for i, p in enumerate(t.players)])
        records = f"{says('records')} · " if s.finished_rounds() else ""
        self.put("#p-info", _("Only the players' lines: the cards of a round come after it, in its records.") + "\n"
                 + records + _("{key}: back to the lobby").format(key=key("quit_palast")))

    def render_today(self) -> None:
        """The lobby's "Today" (SPEC §16): each suit count's daily board — its commitment all
        day, its top by points then time, the player's own try — and the key to play it."""
        s = self.session
        d = s.daily
        if d is None:
            self.put("#p-title", _("Today"))
            self.set_options([])
            self.put("#p-info", _("The daily board is on its way…") + f" · {says('today')}")
            return
        self.put("#p-title", _("Today {day} (UTC): one try a player at each suit count, ranked by points then time; "
                               "not rated").format(day=lines.name(d.day, 10)))
        rows: list[tuple[str, str]] = []
        for b in d.boards:
            if rows:
                rows.append((f"g{b.suits}", ""))
            rows.append((f"d{b.suits}", lines.daily_head(b)))
            rows.append((f"c{b.suits}", lines.commitment_line(b)))
            rows += [(f"e{b.suits}-{i}", lines.daily_entry(e)) for i, e in enumerate(b.entries[:self.daily_top])]
        self.set_options(rows)
        self.put("#p-info", _("Enter or {key}: play today's try at the highlighted suit count").format(key=key("daily_play"))
                 + " · " + _("{key}: the tables").format(key=key("today")))

    @property
    def daily_top(self) -> int:
        """Entries shown of each daily board: what fits the screen beside the other two."""
        return max(1, min(10, (self.app.size.height - 16) // 3))

    def highlighted_id(self) -> str:
        ol = self.query_one("#p-list", OptionList)
        if ol.highlighted is None or ol.option_count == 0:
            return ""
        return ol.get_option_at_index(ol.highlighted).id or ""

    @property
    def narrow(self) -> bool:
        """Under 80 columns: the lobby's and the standings' rows in 38 columns."""
        from spider_tui.ui.screens.game_screen import COMPACT_BELOW

        return 0 < self.app.size.width < COMPACT_BELOW

    def on_resize(self, event: events.Resize) -> None:
        self.render_phase()  # the rows for the new width

    @staticmethod
    def describe(t: m.TableInfo) -> str:
        return (ngettext("{n} suit", "{n} suits", t.suits).format(n=t.suits)
                + f" · {lines.rules_word(t)} · "
                + ngettext("{n} round", "{n} rounds", t.rounds).format(n=t.rounds) + " · "
                + _("{seated}/{seats} seats").format(seated=len(t.players), seats=t.seats)
                + (" · " + _("Training") if t.training else ""))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.session.phase
        allowed = {
            "open_table": phase == "lobby", "code": phase == "lobby", "league": phase == "lobby",
            "refresh": phase == "lobby", "start": phase == "waiting" and self.session.is_host,
            "leave_table": phase in ("waiting", "standings", "race"), "ready": phase == "standings" and not self.session.ready_sent,
            "alone": phase in ("standings", "final") and bool(self.session.deals),
            "back": phase == "final", "to_table": phase == "race",
            "watch": phase == "lobby" and not self.show_league and not self.show_today,
            "records": phase in ("standings", "final", "watching") and bool(self.session.finished_rounds()),
            "today": phase == "lobby", "daily_play": phase == "lobby" and self.show_today,
        }
        if action == "alone":
            return phase in ("standings", "final") and bool(self.session.deals) and not self.show_records
        return allowed.get(action, True)

    # ------------------------------------------------------------------ actions
    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        s = self.session
        oid = event.option.id or ""
        if self.show_records:
            if oid.startswith("rec"):
                self.open_record(int(oid[3:]))
            return
        if s.phase == "watching":
            return
        if s.phase == "lobby" and self.show_today:
            await self.action_daily_play(oid)
            return
        if s.phase == "lobby" and not self.show_league and event.option.id and event.option.id.isdigit():
            await s.join(table=int(event.option.id))
            self.render_phase()
        elif s.phase == "standings":
            await self.action_ready()
        elif s.phase == "final":
            self.action_back()
        elif s.phase == "race":
            self.action_to_table()

    def action_to_table(self) -> None:
        s = self.session
        if s.race is None or s.phase != "race":
            return
        # On top, not just "current" (Textual counts a screen seen behind another as current):
        # e.g. playing a deal alone, say so and don't pull the player away (or the practice round
        # would come back over the standings when the race ends).
        if self.app.screen is not self:
            self.app.notify(_("Round {round} has started at your Palast table (q, then t).").format(round=s.round),
                            markup=False)
            return
        self._race_screen = RaceScreen(s, self.look)
        self.app.push_screen(self._race_screen)

    def action_open_table(self) -> None:
        async def chosen(form: OpenForm | None) -> None:
            if form is not None:
                await self.session.open(**form.request())
                self.render_phase()

        fast = next((t.fast_seconds for t in self.session.tables if t.fast_seconds is not None), None)
        self.app.push_screen(OpenTableScreen(ascii=self.look.ascii, fast_seconds=fast), chosen)

    def action_code(self) -> None:
        async def chosen(code: str | None) -> None:
            if code:
                await self.session.join(code=code)
                self.render_phase()

        self.app.push_screen(AskScreen(_("Invite code:")), chosen)

    async def action_league(self) -> None:
        self.show_league = not self.show_league
        self.show_today = False
        if self.show_league:
            await self.session.load_league()
        else:
            await self.session.refresh()
        self.render_phase()

    async def action_refresh(self) -> None:
        await self.session.refresh()

    # ------------------------------------------------------------------ SPEC §16
    async def action_watch(self) -> None:
        """w on a lobby row: watch that table (a refusal is a quiet status line)."""
        oid = self.highlighted_id()
        if oid.isdigit():
            await self.session.watch(int(oid))
            self.render_phase()

    async def action_records(self) -> None:
        """w after a round: the table's records (w again, or Esc, back to the standings)."""
        if self.show_records:
            self.show_records = False
        elif await self.session.load_records():
            self.show_records = True
            self.query_one("#p-list", OptionList).highlighted = 0
        self.render_phase()

    def open_record(self, index: int) -> None:
        """One player's record in the replay (the solo replay screen); a record that can't be
        replayed gets a one-line notice, and nothing else changes."""
        found = self.session.records or []
        if not 0 <= index < len(found):
            return
        rec = found[index]
        if rec.record is None:
            self.notify(lines.name(rec.problem, 200), severity="error", markup=False)
            return
        self.post_message(messages.OpenReplay(rec.record))

    async def action_today(self) -> None:
        """d in the lobby: Today, the daily board (d again: the tables)."""
        self.show_today = not self.show_today
        self.show_league = False
        if self.show_today:
            await self.session.load_daily()
            self.query_one("#p-list", OptionList).highlighted = 0
        else:
            await self.session.refresh()
        self.render_phase()

    async def action_daily_play(self, oid: str | None = None) -> None:
        """p (or Enter) on a board of Today: play today's try at its suit count."""
        oid = oid if oid is not None else self.highlighted_id()
        digits = oid[1:].split("-")[0]
        if not oid or oid[0] not in "dce" or not digits.isdigit() or int(digits) not in m.SUITS:
            return
        await self.session.play_daily(int(digits))
        self.render_phase()

    async def action_start(self) -> None:
        await self.session.start_table()

    async def action_leave_table(self) -> None:
        """x: leave a table; a running one only on a second x (its question on the info line)."""
        if self.session.phase != "waiting" and not self._leave_asked:
            self._leave_asked = True
            self.put("#p-info", _(lines.LEAVE_RUNNING) + "\n" + _("{key} again: leave the table").format(key=key("leave_table")))
            return
        self._leave_asked = False
        await self.session.leave()
        self.render_phase()

    async def action_ready(self) -> None:
        await self.session.ready()
        self.render_phase()

    def action_back(self) -> None:
        self.session.back_to_lobby()
        self.render_phase()
        self.call_later(self.session.refresh)

    def action_alone(self) -> None:
        """Play the last finished round's deal alone: a practice round, not recorded (leaving it
        comes back here)."""
        s = self.session
        if not s.deals:
            return
        _round, deal = s.deals[-1]
        t = s.table
        told = t.rules if t is not None and t.rules else "classic"
        rules = playable_rules("+".join(w for w in told.split("+") if w != "practice") or "classic")
        self.post_message(messages.PracticeDeal(deal, t.suits if t is not None and t.suits else 1, rules))

    def action_help(self) -> None:
        """F1: help at its PALAST section (SPEC §15), as in the race."""
        self.post_message(messages.ShowHelp(section="PALAST"))

    async def action_quit_palast(self) -> None:
        """Esc/q: back from the records, a watched table or Today; else leave the Palast (a
        seat in a round in play is kept until the round ends)."""
        if self.show_records:
            self.show_records = False
            self.render_phase()
            return
        if self.session.phase == "watching":
            await self.session.unwatch()
            self.render_phase()
            return
        if self.show_today:
            await self.action_today()
            return
        await self.session.close()
        self.dismiss()


class AskScreen(ModalScreen["str | None"]):
    """One line of input (an invite code).  Enter answers, Esc cancels."""

    BINDINGS = bindings(PALAST_ASK_COMMANDS)
    DEFAULT_CSS = """
    AskScreen { align: center middle; }
    AskScreen > Vertical { width: 40; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, prompt: str) -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.prompt, markup=False)
            yield Input(id="ask", max_length=32)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _seconds(value: float | None) -> str | None:
    """A span the server told (``between_seconds``, ``start_seconds``) as the lobby says it, or
    None when it didn't say (an older server) or said one no table has (under 0, or days)."""
    if value is not None and 0 <= value < 10**6:
        return _("{n} s").format(n=f"{value:g}")
    return None


def start_line(t: m.TableInfo) -> str:
    """A standard table's start, with the server's own wait (the table's ``start_seconds``,
    `spider server --start-wait`; an older server doesn't say, then no number is made up)."""
    wait = _seconds(t.start_seconds)
    if wait is None:
        return _("This table starts by itself when it is full, or soon after its second player sat down.") + " "
    return _("This table starts by itself when it is full or {wait} after its second player.").format(wait=wait) + " "


def ready_line(sent: bool, between: float | None) -> str:
    """Between rounds: how the next round starts, with the server's own pause (the table's
    ``between_seconds``; an older server doesn't say, then only "when all are ready")."""
    after = _seconds(between)
    if after is not None:
        if sent:
            return _("Ready: waiting for the others (the next round starts within {after}).").format(after=after)
        return says("ready") + " " + _("(it starts when all are ready, or after {after}).").format(after=after)
    if sent:
        return _("Ready: waiting for the others (the next round starts when all are ready, or soon after).")
    return says("ready") + " " + _("(it starts when all are ready, or after a pause).")


class OpenTableScreen(ModalScreen["OpenForm | None"]):
    """Open a table: Enter (or a click) changes a line; "Open the table" opens it; Esc cancels."""

    BINDINGS = bindings(PALAST_OPEN_COMMANDS)
    DEFAULT_CSS = """
    OpenTableScreen { align: center middle; }
    OpenTableScreen > Vertical { width: 60; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    OpenTableScreen OptionList { height: auto; max-height: 14; }
    """

    def __init__(self, ascii: bool = False, fast_seconds: int | None = None) -> None:
        super().__init__()
        self.form = OpenForm(fast_seconds=fast_seconds)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Open a table: Enter or ←/→ change a line, Esc cancels"), markup=False)
            yield OptionList(*[Option(text, id=key) for key, text in self.form.lines(self.ascii)], id="form", markup=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.form.choose(event.option.id or ""):
            self.dismiss(self.form)
            return
        self.show()

    def action_step(self, step: int) -> None:
        ol = self.query_one("#form", OptionList)
        if ol.highlighted is not None:
            key = ol.get_option_at_index(ol.highlighted).id or ""
            if key != "go":
                self.form.choose(key, step)
                self.show()

    def show(self) -> None:
        ol = self.query_one("#form", OptionList)
        index = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(text, id=key) for key, text in self.form.lines(self.ascii)])
        ol.highlighted = index

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        """F1: help at its PALAST section (the table options are explained there)."""
        self.post_message(messages.ShowHelp(section="PALAST"))
