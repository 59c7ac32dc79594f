"""The app's side of records (SPEC §16): the Records list, the replay, "Play from here", "Race
this" and ghosts, the review in the background, share.  A mixin of ``SpiderApp`` (its handlers are
found by name, ``on_<message>``), so the app's own module stays plumbing."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from spider_tui.i18n import _
from spider_tui.safe_text import visible
from spider_tui.ui import messages

if TYPE_CHECKING:
    from spider_tui.records import Record
    from spider_tui.store.records import Entry
    from spider_tui.ui.screens.records_screen import ReplayScreen


class RecordsNav:
    if TYPE_CHECKING:  # a mixin of SpiderApp
        records: Any
        session: Any
        look: Any
        screen: Any

        def push_screen(self, *a: Any, **k: Any) -> Any: ...
        def switch_screen(self, *a: Any, **k: Any) -> Any: ...
        def notify(self, *a: Any, **k: Any) -> None: ...
        def call_from_thread(self, *a: Any, **k: Any) -> Any: ...
        def show_round(self, table: Any) -> None: ...

    _review_run: threading.Event | None = None

    # ------------------------------------------------------------------ the list and the replay
    def on_open_records(self, message: messages.OpenRecords | None = None) -> None:
        from spider_tui.records import RecordError
        from spider_tui.store.records import RecordsError
        from spider_tui.ui.screens.records_screen import RecordsScreen

        def load(entry: Entry) -> Record | str:
            try:
                return self.records.load(str(entry.path))[0]
            except (RecordsError, RecordError) as e:
                return str(e)

        self.push_screen(RecordsScreen(self.records.entries(), load))

    def on_open_replay(self, message: messages.OpenReplay) -> None:
        self.open_replay(message.record, message.step)  # type: ignore[arg-type]

    def open_replay(self, record: Record, step: int | None = None, review_now: bool = False) -> None:
        from spider_tui.records import RecordError
        from spider_tui.replay import Replay
        from spider_tui.ui.screens.records_screen import ReplayScreen

        try:
            replay = Replay(record, step or 0)
        except RecordError as e:
            self.notify(visible(str(e)), severity="error", markup=False)
            return
        self.push_screen(ReplayScreen(replay, self.look, review=self.start_review, review_now=review_now))

    def on_play_from_here(self, message: messages.PlayFromHere) -> None:
        self.show_round(self.session.practice(message.position))

    def on_race_record(self, message: messages.RaceRecord) -> None:
        self.race(message.record, message.name)  # type: ignore[arg-type]

    def race(self, record: Record, name: str | None = None) -> None:
        """A round of the record's deal and rules, with the record as a ghost above the table."""
        from spider_tui.ghost import Ghost
        from spider_tui.ui.screens.ghost_screen import GhostScreen

        table = self.session.deal(record.deal, record.suits, record.rules)
        screen = GhostScreen(self.session, self.look, Ghost(record, name))
        from spider_tui.ui.screens.game_screen import GameScreen

        if isinstance(self.screen, GameScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        assert table is self.session.table

    # ------------------------------------------------------------------ the review
    def start_review(self, screen: ReplayScreen) -> None:
        """"Where did I lose it?" in a background thread, with a progress line on the replay's
        status; at the end the replay opens at the step it names."""
        from spider_tui.review import review

        if self._review_run is not None and not self._review_run.is_set():
            screen.replay.table.say(_("The review is running already."))
            screen.sync()
            return
        cancel = threading.Event()
        self._review_run = cancel
        record = screen.replay.record

        def said(text: str) -> None:
            def show() -> None:
                screen.replay.table.say(text)
                screen.sync()
            try:
                self.call_from_thread(show)
            except RuntimeError:
                cancel.set()

        def work() -> None:
            try:
                verdict = review(record, cancel=cancel, progress=said)
            except Exception as e:  # a bug must not leave the player waiting: say it
                said(_("The review failed: {e}").format(e=e))
                return
            finally:
                cancel.set()

            def done() -> None:
                if screen.is_attached:
                    screen.replay.go(verdict.step)
                    screen.replay.table.say(verdict.text)
                    screen.sync()
            try:
                self.call_from_thread(done)
            except RuntimeError:
                pass

        screen.replay.table.say(_("Where did I lose it? The solver is walking your line back…"))
        screen.sync()
        threading.Thread(target=work, name="spider-review", daemon=True).start()

    def on_review_round(self, message: messages.ReviewRound) -> None:
        """``v`` after a round not won: the replay of its record, and the review in it."""
        record: Record = message.record  # type: ignore[assignment]
        self.open_replay(record, len(record.actions), review_now=True)
