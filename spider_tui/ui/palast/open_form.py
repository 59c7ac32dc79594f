""""Open a table" as plain logic (SPEC §13): suits 1/2/4, the §10 options, 1–10 rounds, 2–6
seats, public or private.  The screen lists ``lines()`` and calls ``choose(key)``; ``request()``
is the ``open`` message's fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from spider_tui.engine.cards import SUIT_COUNTS
from spider_tui.engine.rules import RULE_OPTIONS
from spider_tui.i18n import _
from spider_tui.rules_menu import checkbox

#: (key, label, rules word) of the §10 options a table may have: the rule options' table.
OPTIONS = tuple((o.word, o.palast, o.word) for o in RULE_OPTIONS if o.palast is not None)


@dataclass
class OpenForm:
    suits: int = 1
    rounds: int = 3
    seats: int = 4
    private: bool = False
    options: set[str] = field(default_factory=set)
    #: the server's Fast round clock (told with its tables), for the Fast line's words
    fast_seconds: int | None = None

    @property
    def rules(self) -> str:
        words = [w for key, _label, w in OPTIONS if key in self.options]
        return "+".join(words) or "classic"

    def choose(self, key: str, step: int = 1) -> bool:
        """Act on a line (``step`` -1 counts down: Left); True when it is the "Open the table" line."""
        if key == "suits":
            order = SUIT_COUNTS
            self.suits = order[(order.index(self.suits) + step) % len(order)]
        elif key == "rounds":
            self.rounds = (self.rounds - 1 + step) % 10 + 1
        elif key == "seats":
            self.seats = (self.seats - 2 + step) % 5 + 2
        elif key == "private":
            self.private = not self.private
        elif key in dict((k, 1) for k, _l, _w in OPTIONS):
            self.options ^= {key}
        return key == "go"

    def lines(self, ascii: bool = False) -> list[tuple[str, str]]:
        out = [("suits", _("Suits: {n}").format(n=self.suits)), ("rounds", _("Rounds: {n}").format(n=self.rounds)),
               ("seats", _("Seats: {n}").format(n=self.seats)),
               ("private", _("Private (joined by invite code): {answer}").format(
                   answer=_("yes") if self.private else _("no")))]
        for key, label, _w in OPTIONS:
            label = _(label)
            if key == "fast" and self.fast_seconds:  # the server's clock, not this app's default
                label = _("Fast ({minutes:g} min rounds)").format(minutes=round(self.fast_seconds / 60, 1))
            out.append((key, f"{checkbox(key in self.options, ascii)} {label}"))
        out.append(("go", _("Open the table")))
        return out

    def request(self) -> dict:
        return {"suits": self.suits, "rules": self.rules, "rounds": self.rounds, "seats": self.seats,
                "private": self.private}
