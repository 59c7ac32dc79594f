"""Issue 22 item 16: between Palast rounds the text says the server's own pause, not "30 s"."""

from __future__ import annotations

from spider_tui.ui.palast.lobby import ready_line


async def test_the_table_tells_its_pause_between_rounds_and_the_ready_line_says_it(palast_factory):
    palast = await palast_factory(between_seconds=5)
    a = await palast.player("A")
    t = (await a.open(suits=1, rules="classic", rounds=2, seats=2))["table"]
    assert t["between_seconds"] == 5
    assert "after 5 s" in ready_line(False, t["between_seconds"]) and "30" not in ready_line(False, 5)
    assert "within 5 s" in ready_line(True, t["between_seconds"])
    # An older server that doesn't say: no number is made up.
    assert "30" not in ready_line(False, None) and " s)" not in ready_line(True, None)
