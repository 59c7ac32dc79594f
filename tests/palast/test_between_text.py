"""Issue 22 item 16: between Palast rounds the text says the server's own pause, not "30 s";
issue 21: the same for a standard table's start wait (the table object's ``start_seconds``)."""

from __future__ import annotations

import pytest

from spider_tui.palast.client import Refused
from spider_tui.palast.messages import TableInfo
from spider_tui.palast.client.session import PalastSession
from spider_tui.ui.palast.lobby import ready_line, start_line


async def test_the_table_tells_its_pause_between_rounds_and_the_ready_line_says_it(palast_factory):
    palast = await palast_factory(between_seconds=5)
    a = await palast.player("A")
    t = (await a.open(suits=1, rules="classic", rounds=2, seats=2))["table"]
    assert t["between_seconds"] == 5
    assert "after 5 s" in ready_line(False, t["between_seconds"]) and "30" not in ready_line(False, 5)
    assert "within 5 s" in ready_line(True, t["between_seconds"])
    # An older server that doesn't say: no number is made up.
    assert "30" not in ready_line(False, None) and " s)" not in ready_line(True, None)


async def test_the_server_logs_a_line_per_table_started_and_finished(palast_factory, caplog):
    # Issue 22 item 19: `spider server` printed nothing after "listening".
    import logging

    caplog.set_level(logging.INFO, logger="spider.palast")
    palast = await palast_factory()
    a = await palast.player("Solo")
    await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    await a.start()
    await a.wait_for("round")
    await a.play("give up")
    await a.wait_for("table_over")
    lines = [r.getMessage() for r in caplog.records if r.name == "spider.palast"]
    assert any("started" in line and "Solo" in line for line in lines), lines
    assert any("finished" in line and "1. Solo" in line for line in lines), lines


async def test_a_standard_table_tells_its_start_wait_and_the_waiting_text_says_it(palast_factory):
    palast = await palast_factory(start_wait=45)
    s = PalastSession(palast.url, "Ann")
    await s.start()
    try:
        await s.refresh()
        standard = next(t for t in s.tables if t.standard)
        assert await s.join(table=standard.id)
        assert s.table is not None and s.table.start_seconds == 45
        text = start_line(s.table)
        assert "45 s after its second player" in text and "30" not in text
        # the server's own refusal says the same wait
        with pytest.raises(Refused, match="45 seconds after its second player"):
            assert s.client is not None
            await s.client.start()
    finally:
        await s.close()
    # A table with a host starts when the host says: no start wait is told.
    b = await palast.player("Bo")
    opened = (await b.open(suits=1, rules="classic", rounds=2, seats=2))["table"]
    assert "start_seconds" not in opened
    # An older server that doesn't say: no number is made up.
    assert not any(ch.isdigit() for ch in start_line(TableInfo(id=1, standard=True)))
