"""The attacks of issue 20 against a real `spider server`, each while an honest player plays.

    python bench/attacks.py [--code DIR] [--seconds S] [ATTACK ...]

Each attack runs against a fresh `spider server` (SQLite in a fresh data dir) in a subprocess on
127.0.0.1, with the attacker in a second process and the honest player here: the honest player
signs in, opens a Training table, and plays by the hint at 5 actions a second; its action→answer
p99 is measured over the attack (SPEC §13: ≤ 50 ms).  ``--code DIR`` runs the server from another
checkout (``--code /work/main`` gives the figures before issue 20).  The attacker's connections
carry ``X-Forwarded-For`` addresses and the server is started with ``--forwarded-for`` when it
knows it (so the honest player and the attacker are two addresses, as on the internet; an older
server ignores the header and sees everyone as 127.0.0.1).

Attacks (the issue's, scaled to a shared 2-core machine):
- ``hello``: 1,000 connections that never say hello, each sending ``league`` every 8 s; then a
  newcomer registers and a returning player signs in.  Reports connections the server kept.
- ``reconnect``: 60 ``tables`` messages, sign in again, repeat: answers a second.
- ``register``: new names from one address as fast as the server takes them: names accepted.
- ``lobby``: 300 names each open a table, then one connection asks ``tables`` 25 times a second:
  tables opened, the answer's size, bytes received a second.
- ``slow``: 200 connections (20 names) that ask for the lobby 20 times a second and never read:
  the server's peak RSS.

Issue 29's (SPEC §13 "against a determined cheater"):
- ``pings``: one signed-in connection sends pings as fast as it can and reads nothing: pings
  sent before the server closed it, whether it did, the server's peak RSS.
- ``prehello``: the same before ``hello``.
- ``halfopen``: 1,000 TCP connections from one loopback address (127.0.0.66) that never finish
  their upgrade; then 5 honest sign-ins from another address: how many the server held, how many
  sign-ins got in.  (The server runs without ``--forwarded-for``: the peer address counts.)
- ``prefix``: 250 loopback addresses of one /24 (127.0.5.x), each within its own limits, open 20
  connections and register a name each: connections and names the server let in.
- ``refuse``: one address past its connection limit tries to connect as fast as it can: attempts
  a second (all refused) while the honest player plays.
- ``xff``: 200 upgrades with two ``X-Forwarded-For`` lines: the HTTP statuses the server answered.
- ``league``: a league of 1,500 ranked sybils (written into the database before the server
  starts), then 20 askers from 20 addresses, each connecting 25 times a second and asking for the
  league before ``hello`` (one anonymous ``league`` a connection): answers a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HONEST_ADDRESS = "192.0.2.1"
ATTACKER = "203.0.113.66"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


SYBILS = 1500


def seed_league(data: str, players: int = SYBILS) -> None:
    """Write ``players`` ranked players into a fresh SQLite Palast in ``data`` (the league attack)."""
    from spider_tui.palast.server.db.sqlite import SqliteStore

    async def go() -> None:
        store = SqliteStore(Path(data) / "palast.sqlite3")
        await store.open()
        for i in range(players):
            await store.register(f"Sybil{i:04d}", secrets.token_hex(16), time.time())
        await store.close()

    asyncio.run(go())
    import sqlite3

    db = sqlite3.connect(Path(data) / "palast.sqlite3")
    with db:
        db.execute("UPDATE players SET rating_mu = 25 + (id % 97) / 10.0, rating_sigma = 2.0, tables = 10, "
                   "wins = id % 10, experience = 100 + id")
    db.close()


class Server:
    def __init__(self, code: Path | None, forwarded: bool = True, seed: bool = False) -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.data = tempfile.mkdtemp(prefix="attacks-")
        if seed:
            seed_league(self.data)
        env = dict(os.environ)
        if code is not None:
            env["PYTHONPATH"] = str(code)
        cwd = code or ROOT  # `python -m` reads the package from its working directory first
        help_text = subprocess.run([sys.executable, "-m", "spider_tui", "server", "--help"], env=env, cwd=cwd,
                                   capture_output=True, text=True).stdout
        self.limits = "--forwarded-for" in help_text and forwarded
        args = [sys.executable, "-m", "spider_tui", "server", "--host", "127.0.0.1", "--port", str(self.port),
                "--data-dir", self.data] + (["--forwarded-for"] if self.limits else [])
        self.log = open(Path(self.data) / "server.log", "w")
        self.proc = subprocess.Popen(args, env=env, stdout=self.log, stderr=subprocess.STDOUT, cwd=cwd)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


async def client(url: str, address: str):
    from spider_tui.palast.client.client import PalastClient

    return await PalastClient.connect(url, additional_headers={"X-Forwarded-For": address})


# ---------------------------------------------------------------- the honest player
async def honest(url: str, seconds: float, ready: asyncio.Event | None = None) -> dict:
    """Play Training rounds by the hint at 5 actions a second; action→answer times."""
    from spider_tui.engine import Game

    c = await client(url, HONEST_ADDRESS)
    await c.hello(f"Honest{secrets.token_hex(3)}", None)
    times: list[float] = []
    errors = 0
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end and not c.closed.is_set():
            await c.request("open", suits=1, rules="practice", rounds=1, seats=2, private=False)
            await c.request("start")
            ev = await c.wait_for("round", timeout=30)
            view = Game.from_text(ev["position"])
            while time.monotonic() < end:
                m = view.hint()
                t0 = time.perf_counter()
                try:
                    ans = await c.request("play", check=False, move=str(m) if m is not None else "give up")
                except (asyncio.TimeoutError, ConnectionError):
                    errors += 1
                    break
                times.append(time.perf_counter() - t0)
                if ans["type"] != "played":
                    errors += 1
                    break
                view = Game.from_text(ans["position"])
                if ans["state"] != "playing":
                    break
                await asyncio.sleep(0.2)
            else:
                break  # time is up in the middle of a round
            await c.wait_for("table_over", timeout=30)
    except Exception as e:  # noqa: BLE001 - a bench reports, never hides
        errors += 1
        print(f"  honest player: {type(e).__name__}: {e}", file=sys.stderr)
    finally:
        await c.close()
    times.sort()
    pick = lambda q: round(1000 * times[min(len(times) - 1, int(q * len(times)))], 1) if times else None  # noqa: E731
    return {"actions": len(times), "errors": errors, "p50_ms": pick(0.5), "p90_ms": pick(0.9), "p99_ms": pick(0.99),
            "max_ms": pick(1.0)}


# ---------------------------------------------------------------- the attacks (child process)
async def attack_hello(url: str, seconds: float) -> dict:
    from websockets.asyncio.client import connect

    held: list = []
    refused = 0

    async def one(i: int) -> None:
        nonlocal refused
        try:
            ws = await connect(url, additional_headers={"X-Forwarded-For": ATTACKER}, open_timeout=20)
        except Exception:  # noqa: BLE001
            refused += 1
            return
        held.append(ws)
        try:
            while True:
                await ws.send(json.dumps({"type": "league"}))
                try:
                    async with asyncio.timeout(8):
                        while True:
                            msg = json.loads(await ws.recv())
                            if msg.get("type") == "error":
                                raise ConnectionError
                except TimeoutError:
                    pass
        except Exception:  # noqa: BLE001
            pass

    tasks = [asyncio.ensure_future(one(i)) for i in range(1000)]
    await asyncio.sleep(3)
    open_now = sum(1 for ws in held if ws.state.name == "OPEN")
    # a newcomer and a returning player while the flood runs
    newcomer_ok = returning_ok = False
    try:
        c = await client(url, "198.51.100.7")
        await c.hello("Newcomer", None)
        token = c.token
        await c.close()
        newcomer_ok = True
        c = await client(url, "198.51.100.7")
        await c.hello("Newcomer", token)
        await c.close()
        returning_ok = True
    except Exception:  # noqa: BLE001
        pass
    await asyncio.sleep(max(0.0, seconds - 3))
    still = sum(1 for ws in held if ws.state.name == "OPEN")
    for t in tasks:
        t.cancel()
    for ws in held:
        ws.transport.abort()
    return {"connections_open_at_3s": open_now, "connections_open_at_end": still, "refused": refused,
            "newcomer_got_in": newcomer_ok, "returning_got_in": returning_ok}


async def attack_reconnect(url: str, seconds: float) -> dict:
    answers = 0
    c = await client(url, ATTACKER)
    await c.hello("Hammer", None)
    token = c.token
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        futs = [asyncio.ensure_future(c.request("tables", check=False, timeout=5)) for _ in range(60)]
        for f in futs:
            try:
                if (await f)["type"] == "tables":
                    answers += 1
            except Exception:  # noqa: BLE001
                pass
        await c.close()
        c = await client(url, ATTACKER)
        try:
            await c.hello("Hammer", token)
        except Exception:  # noqa: BLE001
            await asyncio.sleep(0.05)
    await c.close()
    return {"answers_per_second": round(answers / (time.monotonic() - t0), 1)}


async def attack_register(url: str, seconds: float) -> dict:
    accepted = refused = 0
    t0 = time.monotonic()
    i = 0
    while time.monotonic() - t0 < seconds:
        c = await client(url, ATTACKER)
        try:
            await c.hello(f"Fake{i}x{os.getpid() % 1000}", None)
            accepted += 1
        except Exception:  # noqa: BLE001
            refused += 1
        await c.close()
        i += 1
    return {"names_accepted": accepted, "refused": refused, "seconds": round(time.monotonic() - t0, 1)}


async def attack_lobby(url: str, seconds: float) -> dict:
    opened = 0
    c = await client(url, ATTACKER)
    await c.hello(f"Reader{os.getpid() % 1000}", None)  # its name first (new names are limited)
    reader = (c.name, c.token)
    await c.close()
    for i in range(300):
        try:
            c = await client(url, ATTACKER)
            await c.hello(f"Opener{i}x{os.getpid() % 1000}", None)
            ans = await c.request("open", check=False, suits=1, rules="classic", rounds=1, seats=2, private=False)
            opened += ans["type"] == "joined"
            await c.close()
        except Exception:  # noqa: BLE001
            pass
    await asyncio.sleep(3)  # the address's message bucket refills (its openers emptied it)
    c = await client(url, ATTACKER)
    await c.hello(*reader)
    size = len(json.dumps(await c.request("tables")))
    received = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds and not c.closed.is_set():
        try:
            received += len(json.dumps(await c.request("tables", check=False, timeout=5)))
        except Exception:  # noqa: BLE001
            break
        await asyncio.sleep(0.04)
    elapsed = time.monotonic() - t0
    await c.close()
    return {"tables_opened": opened, "lobby_answer_bytes": size, "kb_received_per_second": round(received / 1024 / elapsed, 1)}


async def attack_slow(url: str, seconds: float) -> dict:
    """200 connections that ask for the lobby 20 times a second and never read."""
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    loop = asyncio.get_running_loop()
    socks = []
    opened: list[int] = []

    async def one(i: int) -> None:
        proto = ClientProtocol(parse_uri(url), max_size=2**22)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        socks.append(sock)
        u = parse_uri(url)
        await loop.sock_connect(sock, (u.host, u.port))
        req = proto.connect()
        req.headers["X-Forwarded-For"] = ATTACKER  # one client, as in the issue
        proto.send_request(req)
        await loop.sock_sendall(sock, b"".join(proto.data_to_send()))
        async with asyncio.timeout(10):
            while proto.state.name != "OPEN":
                data = await loop.sock_recv(sock, 65536)
                if not data or proto.handshake_exc is not None:
                    return  # turned away (the limits per address)
                proto.receive_data(data)
                proto.events_received()
                if proto.handshake_exc is not None:
                    return
        opened.append(i)
        proto.send_text(json.dumps({"type": "hello", "protocol": 1, "name": names[i % len(names)][0],
                                    "token": names[i % len(names)][1]}).encode())
        await loop.sock_sendall(sock, b"".join(proto.data_to_send()))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            proto.send_text(b'{"type": "tables"}')
            try:
                await asyncio.wait_for(loop.sock_sendall(sock, b"".join(proto.data_to_send())), 2)
            except (OSError, asyncio.TimeoutError):
                return
            await asyncio.sleep(0.05)

    names = []
    for i in range(20):  # the names an address may make; each signs in on ten connections
        c = await client(url, ATTACKER)
        try:
            await c.hello(f"Slow{i}x{os.getpid() % 1000}", None)
            names.append((c.name, c.token))
        except Exception:  # noqa: BLE001
            pass
        await c.close()
    names = names or [("Nobody", None)]
    await asyncio.gather(*(one(i) for i in range(200)), return_exceptions=True)
    for s in socks:
        s.close()
    return {"slow_readers": 200, "got_in": len(opened)}


def _upgrade(url: str, extra: str = "") -> bytes:
    import base64

    host = url.split("//", 1)[1].rstrip("/")
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET / HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode()


def _frame(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _raw(url: str, source: str = "127.0.0.1", extra: str = "", rcvbuf: int | None = None):
    loop = asyncio.get_running_loop()
    host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.setblocking(False)
    await loop.sock_connect(sock, (host, int(port)))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(_upgrade(url, extra))
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer, head.split(b"\r\n", 1)[0].decode()


async def _ping_flood(url: str, seconds: float, hello: bool) -> dict:
    _r, w, status = await _raw(url, extra=f"X-Forwarded-For: {ATTACKER}\r\n", rcvbuf=4096)
    if hello:
        w.write(_frame(1, json.dumps({"type": "hello", "protocol": 1, "name": f"Pinger{os.getpid() % 1000}",
                                      "token": None}).encode()))
    sent, closed = 0, False
    batch = _frame(9, b"p" * 125) * 100
    t0 = time.monotonic()
    try:
        while time.monotonic() - t0 < seconds:
            w.write(batch)
            await asyncio.wait_for(w.drain(), 5)
            sent += 100
            await asyncio.sleep(0)
    except (OSError, asyncio.TimeoutError) as e:
        closed = not isinstance(e, asyncio.TimeoutError)
    w.close()
    return {"status": status, "pings_sent": sent, "closed_by_server": closed,
            "seconds_to_close": round(time.monotonic() - t0, 1) if closed else None}


async def attack_pings(url: str, seconds: float) -> dict:
    return await _ping_flood(url, seconds, hello=True)


async def attack_prehello(url: str, seconds: float) -> dict:
    return await _ping_flood(url, seconds, hello=False)


async def attack_halfopen(url: str, seconds: float) -> dict:
    host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    held = []
    for _ in range(1000):
        try:
            _r, w = await asyncio.wait_for(asyncio.open_connection(host, int(port), local_addr=("127.0.0.66", 0)), 5)
            held.append(w)
        except (OSError, asyncio.TimeoutError):
            break
    await asyncio.sleep(0.5)
    alive = 0
    for w in held:  # the server closed the ones it cut: they read EOF at once
        tr = w.transport
        alive += not tr.is_closing()
    ok = 0
    for i in range(5):
        try:
            c = await client(url, HONEST_ADDRESS)
            await c.hello(f"Late{i}x{os.getpid() % 1000}", None)
            ok += 1
            await c.close()
        except Exception:  # noqa: BLE001
            pass
    await asyncio.sleep(max(0.0, seconds - 1))
    for w in held:
        w.close()
    return {"half_open_opened": len(held), "honest_sign_ins_ok_of_5": ok}


async def attack_prefix(url: str, seconds: float) -> dict:
    from spider_tui.palast.client.client import PalastClient

    held: list = []
    names = 0
    t0 = time.monotonic()
    for a in range(2, 252):
        for j in range(20):
            try:
                _r, w, status = await _raw(url, source=f"127.0.5.{a}")
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                continue
            if " 101 " in status + " ":
                held.append(w)
                if j == 0:
                    w.write(_frame(1, json.dumps({"type": "hello", "protocol": 1, "name": f"Sy{a}x{os.getpid() % 1000}",
                                                  "token": None}).encode()))
                    try:
                        first = await asyncio.wait_for(_r.read(200), 5)
                        names += b"welcome" in first
                    except (OSError, asyncio.TimeoutError):
                        pass
            else:
                w.close()
        if time.monotonic() - t0 > seconds:
            break
    await asyncio.sleep(1)
    for w in held:
        w.close()
    del PalastClient
    return {"addresses": 250, "connections_let_in": len(held), "names_registered": names}


async def attack_refuse(url: str, seconds: float) -> dict:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    held = []
    for _ in range(32):
        try:
            held.append(await connect(url, additional_headers={"X-Forwarded-For": ATTACKER}))
        except Exception:  # noqa: BLE001
            break
    attempts = refused = 0
    t0 = time.monotonic()

    async def one() -> None:
        nonlocal attempts, refused
        while time.monotonic() - t0 < seconds:
            attempts += 1
            try:
                ws = await connect(url, additional_headers={"X-Forwarded-For": ATTACKER}, open_timeout=5)
                held.append(ws)
            except InvalidStatus:
                refused += 1
            except Exception:  # noqa: BLE001
                refused += 1

    await asyncio.gather(*(one() for _ in range(8)))
    elapsed = time.monotonic() - t0
    for ws in held:
        await ws.close()
    return {"attempts_per_second": round(attempts / elapsed, 1), "refused": refused, "attempts": attempts}


async def attack_xff(url: str, seconds: float) -> dict:
    statuses: dict[str, int] = {}
    for _ in range(200):
        try:
            _r, w, status = await _raw(url, extra="X-Forwarded-For: 198.51.100.1\r\nX-Forwarded-For: 203.0.113.9\r\n")
            code = status.split()[1] if len(status.split()) > 1 else "?"
            w.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            code = "closed"
        statuses[code] = statuses.get(code, 0) + 1
    return {"statuses": statuses}


async def attack_league(url: str, seconds: float) -> dict:
    """20 addresses, each connecting 25 times a second for one anonymous ``league``."""
    from websockets.asyncio.client import connect

    answers = failures = 0
    size = 0
    t0 = time.monotonic()

    async def asker(i: int) -> None:
        nonlocal answers, failures, size
        address = f"198.18.{i}.7"
        k = 0
        while time.monotonic() - t0 < seconds:
            k += 1
            try:
                async with connect(url, additional_headers={"X-Forwarded-For": address}, open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "league", "id": 1}))
                    text = await asyncio.wait_for(ws.recv(), 5)
                    size = len(text)
                    answers += json.loads(text).get("type") == "league"
            except Exception:  # noqa: BLE001 - counted, the bench goes on
                failures += 1
            delay = t0 + k / 25 - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)

    await asyncio.gather(*(asker(i) for i in range(20)))
    elapsed = time.monotonic() - t0
    return {"answers_per_second": round(answers / elapsed, 1), "failures": failures, "answer_bytes": size}


ATTACKS = {"league": attack_league, "hello": attack_hello, "reconnect": attack_reconnect, "register": attack_register,
           "lobby": attack_lobby, "slow": attack_slow, "pings": attack_pings, "prehello": attack_prehello,
           "halfopen": attack_halfopen, "prefix": attack_prefix, "refuse": attack_refuse, "xff": attack_xff}
#: Attacks that come from real loopback peer addresses: the server counts peers, not the header.
PEER_ATTACKS = {"halfopen", "prefix"}


def child(name: str, url: str, seconds: float) -> None:
    print(json.dumps(asyncio.run(ATTACKS[name](url, seconds))), flush=True)


def run(name: str, code: Path | None, seconds: float) -> dict:
    server = Server(code, forwarded=name not in PEER_ATTACKS, seed=name == "league")
    try:
        rss0 = rss_kb(server.proc.pid)
        baseline = asyncio.run(honest(server.url, 5))
        attacker = subprocess.Popen([sys.executable, __file__, "--child", name, "--url", server.url,
                                     "--seconds", str(seconds)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        peak = [rss0]

        async def during() -> dict:
            async def watch() -> None:
                while attacker.poll() is None:
                    peak[0] = max(peak[0], rss_kb(server.proc.pid))
                    await asyncio.sleep(0.2)

            w = asyncio.ensure_future(watch())
            await asyncio.sleep(1)  # the attack under way
            out = await honest(server.url, seconds)
            await w
            return out

        under = asyncio.run(during())
        try:
            out, _ = attacker.communicate(timeout=seconds + 120)
        except subprocess.TimeoutExpired:
            attacker.kill()
            out, _ = attacker.communicate()
        lines = [x for x in out.splitlines() if x.startswith("{")]
        result = json.loads(lines[-1]) if lines else {"attacker": "no result"}
        try:
            tracebacks = (Path(server.data) / "server.log").read_text(errors="replace").count("Traceback")
        except OSError:
            tracebacks = None
        result["server_tracebacks"] = tracebacks
        return {"attack": name, "server": str(code or "this checkout"), "limits": server.limits, **result,
                "server_rss_mb_before": round(rss0 / 1024, 1), "server_rss_mb_peak": round(peak[0] / 1024, 1),
                "honest_alone": baseline, "honest_during": under}
    finally:
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("attacks", nargs="*", help=f"any of {', '.join(ATTACKS)} (default: all)")
    ap.add_argument("--code", type=Path, help="run the server from this checkout (e.g. /work/main: before)")
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.url, a.seconds)
        return
    unknown = [x for x in a.attacks if x not in ATTACKS]
    if unknown:
        ap.error(f"unknown attack {unknown[0]!r}: pick from {', '.join(ATTACKS)}")
    for name in a.attacks or list(ATTACKS):
        print(json.dumps(run(name, a.code, a.seconds)), flush=True)


if __name__ == "__main__":
    main()
