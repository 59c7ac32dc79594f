"""The embedded Palast (SPEC §13): "Palast (p)" with no server to reach offers to play here.

``EmbeddedPalast`` runs ``spider server`` as a child process on 127.0.0.1 (a free port, never
another address), with its SQLite file in the app's data dir and house bots that sit down after
a few seconds (nobody else can come to a loopback server), and stops with the app: it is asked
to stop on the app's way out, and it stops by itself when the app is gone (its stdin closes).
A child process, not a thread, so the house bots' search never takes the app's interpreter lock.
It lives outside ``palast/server`` and imports nothing of it (the UI imports no Palast server,
``tests/test_layers.py``): the server runs in the child, as ``spider server``.
``spider server`` stays the way to host for others.

It is private to the app that started it (issue 29): the app makes a secret, hands it to the
child in its environment (which other users can't read) and presents it on every connection
(``client.remember_key``); a connection without it is refused, so another user of the machine
can't sign up or sit at its tables.  Its files are the user's alone: the data dir 0700, the
SQLite file and the log 0600 (the child runs with umask 077, so SQLite's -wal/-shm files too).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from spider_tui.store.palast import HERE

#: The embedded Palast's database file in the data dir (``spider server`` keeps palast.sqlite3).
DB_FILE = "palast-here.sqlite3"
#: Seconds a person waits alone at a standard table before the house bots sit down.
HOUSE_BOTS_AFTER = 5.0
#: Its log (warnings and errors) in the data dir: a pipe nobody reads could fill and stop it.
LOG_FILE = "palast-here.log"
#: The key its login is kept under in the save file (its port changes every time).
LOGIN_KEY = HERE
#: The environment variable the secret reaches the child in (``spider server --key-from-env``).
KEY_ENV = "SPIDER_PALAST_KEY"


def private_file(path: Path) -> None:
    """Create ``path`` if missing, readable and writable by the user alone (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


class EmbeddedError(Exception):
    """The embedded Palast could not start (the reason is one line for the screen)."""


class EmbeddedPalast:
    def __init__(self, data_dir: Path | str, house_bots_after: float = HOUSE_BOTS_AFTER) -> None:
        self.data_dir = Path(data_dir)
        self.house_bots_after = house_bots_after
        self.proc: subprocess.Popen | None = None
        self.url: str | None = None
        self.key: str | None = None

    def start(self, timeout: float = 30.0) -> str:
        """Start the server (blocking: call it from a worker thread); its ws:// URL."""
        if self.url is not None:
            return self.url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        for name in (DB_FILE, DB_FILE + "-wal", DB_FILE + "-shm", LOG_FILE):
            if name == LOG_FILE or (self.data_dir / name).exists():
                private_file(self.data_dir / name)
        import secrets  # here: the app's first frame doesn't need it (SPEC §11)

        self.key = secrets.token_urlsafe(32)
        env = dict(os.environ)
        env[KEY_ENV] = self.key
        log = open(self.data_dir / LOG_FILE, "a", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spider_tui", "server", "--host", "127.0.0.1", "--port", "0",
             "--db", str(self.data_dir / DB_FILE), "--data-dir", str(self.data_dir),
             "--house-bots-after", str(self.house_bots_after), "--until-stdin-closes", "--key-from-env"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, env=env, umask=0o077,
            start_new_session=True,  # a Ctrl+C meant for the app doesn't reach it first
        )
        log.close()  # the child has its own
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline() if self.proc and
                                                             self.proc.stdout else ""), daemon=True)
        reader.start()
        reader.join(timeout)
        first = line[0] if line else ""
        if "listening on ws://127.0.0.1:" not in first:
            self.stop()
            try:
                said = (self.data_dir / LOG_FILE).read_text(encoding="utf-8", errors="replace").strip().splitlines()
            except OSError:
                said = []
            reason = said[-1][:120] if said else ""
            raise EmbeddedError("The Palast here could not start" + (f": {reason}" if reason else "."))
        self.url = first.split("listening on ", 1)[1].strip()
        from spider_tui.palast.client.client import remember_key

        remember_key(self.url, self.key)
        return self.url

    def stop(self, timeout: float = 10.0, wait: bool = True) -> None:
        """Stop the server: its stdin closes, and it finishes its writes and exits.  Without
        ``wait`` (the app on its way out) it is not waited for: it would wait for the app's own
        connection to say goodbye, and the app is leaving."""
        proc, self.proc, url, self.url = self.proc, None, self.url, None
        if url is not None:
            from spider_tui.palast.client.client import remember_key

            remember_key(url, None)
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            if not wait:
                return
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
