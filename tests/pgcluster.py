"""A throwaway PostgreSQL cluster for tests and benchmarks.

``PgCluster`` runs Debian's (or any) PostgreSQL binaries in a temp dir: ``initdb``, then
``pg_ctl start`` on a free loopback port with its unix socket in the same temp dir, and at the
end ``pg_ctl stop`` and the dir removed. PostgreSQL refuses to run as root, so when we are root
the binaries run as the ``postgres`` user (the temp dir is handed to it).

``find_bindir()`` says where the binaries are, or why there are none, so that tests can be
skipped with that reason printed instead of passing silently.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: Where to look for PostgreSQL binaries, newest first; ``SPIDER_PG_BINDIR`` wins.
_BINDIR_GLOBS = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin")


class PgUnavailable(RuntimeError):
    """PostgreSQL can't be run here; the message says why (used as the skip reason)."""


def find_bindir() -> Path:
    """The directory holding ``initdb`` and ``pg_ctl``; raise PgUnavailable saying why not."""
    env = os.environ.get("SPIDER_PG_BINDIR")
    candidates: list[str] = []
    if env:
        candidates.append(env)  # set: only there
    else:
        for pattern in _BINDIR_GLOBS:
            candidates += sorted(glob.glob(pattern), key=_version_key, reverse=True)
        on_path = shutil.which("pg_ctl")
        if on_path:
            candidates.append(str(Path(on_path).parent))
    for cand in candidates:
        d = Path(cand)
        if (d / "initdb").is_file() and (d / "pg_ctl").is_file():
            return d
    if env:
        raise PgUnavailable(f"SPIDER_PG_BINDIR={env} has no initdb/pg_ctl")
    raise PgUnavailable(
        "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or on PATH); "
        "install it (Debian: apt-get install postgresql) or set SPIDER_PG_BINDIR"
    )


def _version_key(path: str) -> tuple[int, ...]:
    digits = "".join(c if c.isdigit() else " " for c in path).split()
    return tuple(int(d) for d in digits)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgCluster:
    """One PostgreSQL server in a temp dir, on 127.0.0.1:``port``, user ``postgres``, no password."""

    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bindir()
        self._run_as: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self._run_as = pwd.getpwnam("postgres")
            except KeyError:
                raise PgUnavailable(
                    "running as root and there is no 'postgres' user to run PostgreSQL as"
                ) from None
        self.dir = Path(tempfile.mkdtemp(prefix="spider-pg-"))
        self.data = self.dir / "data"
        self.sockets = self.dir / "sockets"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.user = "postgres"
        self._started = False
        self._next_db = 0

    # -- running the binaries ------------------------------------------------------------------

    def _run(self, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        kwargs: dict = {}
        if self._run_as is not None:
            kwargs = {"user": self._run_as.pw_uid, "group": self._run_as.pw_gid, "extra_groups": []}
        env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        if self._run_as is not None:
            env["HOME"] = str(self.dir)
        proc = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            capture_output=True, text=True, env=env, cwd=self.dir, timeout=timeout, **kwargs,
        )
        if check and proc.returncode != 0:
            tail = self._log_tail()
            raise PgUnavailable(
                f"{args[0]} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}"
                + (f"\nlog: {tail}" if tail else "")
            )
        return proc

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> PgCluster:
        """initdb (first time) and start; wait until it accepts connections."""
        if not self.data.exists():
            self.sockets.mkdir()
            self.log.touch()
            if self._run_as is not None:
                # mkdtemp made the dir 0700 for root: hand the whole tree to postgres.
                for p in (self.dir, self.sockets, self.log):
                    os.chown(p, self._run_as.pw_uid, self._run_as.pw_gid)
            self._run(
                "initdb", "-D", str(self.data), "-U", self.user, "--auth=trust",
                "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions",
            )
        self._pg_ctl_start()
        return self

    def _pg_ctl_start(self) -> None:
        opts = " ".join([
            f"-p {self.port}",
            f"-k {self.sockets}",
            "-c listen_addresses=127.0.0.1",
            "-c max_connections=300",
            "-c fsync=off",               # a throwaway cluster: speed over surviving a power cut
            "-c full_page_writes=off",
            "-c shared_buffers=32MB",
        ])
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start")
        self._started = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back sessions; ``immediate``: like a crash)."""
        if self._started:
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)
            self._started = False

    def restart(self, mode: str = "fast", pause: float = 0.0) -> None:
        """Stop and start again on the same port (clients see their connections drop)."""
        self.stop(mode)
        if pause:
            time.sleep(pause)
        self._pg_ctl_start()

    def destroy(self) -> None:
        """Stop (as a crash, it's thrown away) and remove the temp dir."""
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.destroy()

    # -- databases -----------------------------------------------------------------------------

    def dsn(self, dbname: str = "postgres") -> str:
        """A ``postgresql://`` URL for a database of this cluster (over TCP on 127.0.0.1)."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, prefix: str = "spider") -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        self._next_db += 1
        name = f"{prefix}_{os.getpid()}_{self._next_db}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by create_database (closing whatever is still connected)."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
