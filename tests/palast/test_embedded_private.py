"""The embedded Palast is the user's alone (issue 29, item 12; SPEC §13): its data dir 0700, its
SQLite file and log 0600, and only the app that started it gets in (a secret the app hands to its
child and presents on every connection); anyone else on the machine is refused."""

from __future__ import annotations

import asyncio
import stat

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from spider_tui.palast import KEY_HEADER
from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.embedded import DB_FILE, LOG_FILE, EmbeddedPalast


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_only_the_app_that_started_it_gets_in_and_its_files_are_private(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / LOG_FILE).write_text("an older log\n")
    (data / LOG_FILE).chmod(0o644)
    here = EmbeddedPalast(data, house_bots_after=30)
    url = await asyncio.to_thread(here.start)
    try:
        # The app itself: signs in as ever.
        c = await PalastClient.connect(url)
        welcome = await c.hello("Owner", None)
        assert welcome["type"] == "welcome"
        await c.close()
        # Anyone else on the machine: no secret, or a wrong one, is refused before the handshake.
        for headers in ({}, {KEY_HEADER: "guess"}):
            with pytest.raises(InvalidStatus) as e:
                async with connect(url, additional_headers=headers):
                    pass
            assert e.value.response.status_code == 403
            assert b"private" in e.value.response.body
        assert mode(data) == 0o700
        for name in (DB_FILE, LOG_FILE):
            assert mode(data / name) == 0o600, name
        for extra in ("-wal", "-shm"):
            if (data / (DB_FILE + extra)).exists():
                assert mode(data / (DB_FILE + extra)) & 0o077 == 0
    finally:
        await asyncio.to_thread(here.stop)


def test_the_secret_is_not_on_the_command_line(tmp_path):
    here = EmbeddedPalast(tmp_path, house_bots_after=30)
    here.start()
    try:
        assert here.proc is not None and here.key
        cmdline = open(f"/proc/{here.proc.pid}/cmdline", "rb").read()
        assert here.key.encode() not in cmdline
    finally:
        here.stop()
