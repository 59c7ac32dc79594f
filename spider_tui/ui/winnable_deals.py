""""Winnable deals only" for New (SPEC §14): the app's side of ``spider_tui.winnable``.

With the setting on, New deals a number the solver proved winnable at the current suit count,
taken from ``winnable.json`` in the data dir.  A background prover keeps a few ready per suit
count, so New doesn't wait; when none is ready yet (the first time at 4 suits, say), a worker
thread proves one and the deal starts when it is found, with a notice meanwhile.

A proof holds for every rule option that only adds freedom or leaves the deal as it is
(Relaxed, Open, Undo off, Joker, Scoring, timers, Practice); Scorpion and the one-deck games
deal or play differently, so there New deals a random number and says why.
"""

from __future__ import annotations

import random
from pathlib import Path

from textual.app import App

from spider_tui.engine import rules_named
from spider_tui.engine.rules import RULE_OPTIONS
from spider_tui import search
from spider_tui.winnable import PROVE_SECONDS, ProvedDeals, Prover, SolverRun


def applies(rules: str) -> bool:
    """Whether a classic-rules proof holds under ``rules``."""
    try:
        r = rules_named(rules)
    except KeyError:
        return False
    return r.variant == "spider" and all(o.solver for o in RULE_OPTIONS if getattr(r, o.field))


#: How long "Finding a winnable deal…" may stay up (it goes as soon as the deal is found).
FINDING_SECONDS = 600


class WinnableDeals:
    """The proved numbers (kept in ``data_dir``) and the prover of one app (it is told there)."""

    def __init__(self, app: App, data_dir: Path, rng: random.Random):
        self.app = app
        self.rng = rng
        self.proved = ProvedDeals(data_dir)
        self.prover = Prover(self.proved, random.Random(rng.random()))
        self._finding: SolverRun[int | None] | None = None

    def prove_ahead(self, suits: int) -> None:
        """Keep proved deals ready for every suit count, ``suits`` first: a change of suit count
        on the start screen then deals at once too (a 4-suit proof can take many seconds)."""
        for other in (4, 2, 1):
            if other != suits:
                self.prover.want(other)
        self.prover.want(suits)

    def stop(self) -> None:
        self.prover.stop()
        if self._finding is not None:
            self._finding.cancel()

    def new_deal(self, suits: int, rules: str, begin) -> bool:
        """Start a proved deal with ``begin(number, suits)``; False when the setting can't apply
        to ``rules`` (the caller deals a random number)."""
        if not applies(rules):
            note = f"Winnable deals only: the solver can't prove deals under {rules}; this deal is random."
            self.app.notify(note, markup=False, timeout=6)
            return False
        number = self.proved.take(suits)
        self.prover.want(suits)
        if number is not None:
            begin(number, suits)
            return True
        if self._finding is not None and self._finding.running and not self._finding.cancelled:
            self.app.notify("Still looking for a winnable deal…", markup=False)
            return True
        seed = self.rng.random()
        # Said until the deal is found (it used to go after 8 s, long before a 4-suit proof).
        self.app.notify(f"Finding a winnable deal at {suits} suit{'s' if suits != 1 else ''} (the solver proves it)…",
                        markup=False, timeout=FINDING_SECONDS)

        def found(number: int | None) -> None:  # in the solver's thread
            if number is not None:
                self.app.call_from_thread(deal, number)
            else:
                self.app.call_from_thread(self.app.clear_notifications)
                self.app.call_from_thread(self.app.notify, "No winnable deal found yet; try New again.", markup=False)

        def deal(number: int) -> None:
            finding.cancel()  # done: New may look again
            self.app.clear_notifications()  # the "Finding…" notice: found
            begin(number, suits)

        def find(cancel) -> int | None:  # in a child process; the thread waits for it
            try:
                return search.find_winnable(suits, seed, 50, PROVE_SECONDS, cancel)
            except search.SearchFailed:
                return None

        finding = self._finding = SolverRun(find, found,
                                            name="spider-find-winnable").start()
        return True


__all__ = ["WinnableDeals", "applies"]
