"""Searches in a child process (SPEC §11: what a search allocates is given back when it ends).

Real children (``python -m spider_tui.search_child``), no stubs: each test checks what the
child answered, that a cancel kills it, and that nothing (thread or process) is left behind.
"""

from __future__ import annotations

import os
import random
import threading
import time

from spider_tui import search
from spider_tui.engine import Game
from spider_tui.winnable import ProvedDeals, Prover, Question, proves_winnable


def children() -> list[int]:
    """Live child processes of this one (from /proc)."""
    me, out = os.getpid(), []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            out.append(int(pid))
    return out


SEARCH_THREADS = ("spider-find-winnable", "spider-prover", "spider-question")


def search_threads() -> list[str]:
    """The live threads of searches (other tests' save writers are not searches)."""
    return [t.name for t in threading.enumerate() if t.name in SEARCH_THREADS]


def until(pred, timeout: float = 60.0, what: str = "waiting") -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, f"timed out {what}"
        time.sleep(0.01)


def test_a_question_is_answered_in_a_child_and_leaves_nothing_behind():
    before = set(children())
    g = Game.new(1, suits=1)
    seen: list[int] = []
    got = []
    done = threading.Event()

    def watch() -> None:  # the search really runs in another process
        while not done.is_set():
            seen.extend(set(children()) - before)
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    q = Question(g, lambda found, secs: (got.append(found), done.set())).start()
    assert done.wait(60)
    watcher.join()
    q.thread.join(30)
    assert got[0].result == "winnable"
    replay = g.copy()
    for m in got[0].moves:
        replay.play(m)
    assert replay.won
    assert seen, "no child process ran the search"
    assert not q.thread.is_alive()
    assert set(children()) <= before and search_threads() == []


def test_cancel_kills_the_childs_work_at_once():
    before = set(children())
    cancel = threading.Event()
    out: list = []
    t = threading.Thread(target=lambda: out.append(search.solve(Game.new(9, suits=4), 600, cancel)))
    t.start()
    until(lambda: set(children()) - before, what="the child to start")
    child = next(iter(set(children()) - before))
    cancel.set()
    t.join(30)
    assert not t.is_alive() and out == [None]
    assert child not in children() and set(children()) <= before  # killed and reaped


def test_a_cancelled_question_stops_its_child_and_never_answers():
    before = set(children())
    got = []
    q = Question(Game.new(9, suits=4), lambda found, secs: got.append(found), seconds=600).start()
    until(lambda: set(children()) - before, what="the child to start")
    q.cancel()
    q.thread.join(30)
    assert not q.thread.is_alive() and got == [] and set(children()) <= before


def test_a_proof_and_a_found_deal_come_from_the_child_and_replay():
    assert search.proves(1, 1, 10) is True
    assert search.proves(2, 4, 0.001) is False
    number = search.find_winnable(1, 0.25, 10, 10)
    assert number is not None and proves_winnable(number, 1)
    assert set(children()) == set()


def test_a_child_that_dies_is_a_failed_search_not_a_hang(monkeypatch):
    monkeypatch.setattr(search, "_command", lambda: [os.sys.executable, "-c", "import os; os._exit(3)"])
    try:
        search.solve(Game.new(1, suits=1), 5)
    except search.SearchFailed:
        pass
    else:
        raise AssertionError("a dead child gave an answer")
    got = []
    done = threading.Event()
    Question(Game.new(1, suits=1), lambda found, secs: (got.append(found), done.set())).start()
    assert done.wait(30) and got[0].result == "unknown"


def test_a_child_that_answers_nonsense_is_refused(monkeypatch):
    for text in ('{"result": "winnable", "moves": ["1-2"]}', '[1]', '{"result": "yes"}', "x" * 10):
        monkeypatch.setattr(search, "_command", lambda t=text: [os.sys.executable, "-c", f"print({t!r})"])
        try:
            search.solve(Game.new(1, suits=1), 5)
        except search.SearchFailed:
            continue
        raise AssertionError(f"took {text!r}")


def test_the_child_refuses_bad_requests():
    import subprocess

    for request in (b"{}", b"[]", b'{"job": "solve", "seconds": 1, "position": 5}', b"\xff",
                    b'{"job": "prove", "seconds": 1e9, "suits": 1, "number": 1}',
                    b'{"job": "prove", "seconds": 1, "suits": 3, "number": 1}'):
        p = subprocess.run([os.sys.executable, "-P", "-m", "spider_tui.search_child"], input=request,
                           capture_output=True, env=search._env(), timeout=60)
        assert p.returncode == 2 and b'"error"' in p.stdout, request


def test_the_prover_ends_its_thread_when_it_has_enough_and_starts_again_when_asked(tmp_path):
    deals = ProvedDeals(tmp_path)
    for n in (1, 3, 5, 7, 9):
        deals.add(1, n)
    prover = Prover(deals, random.Random(3))
    prover.want(1)
    until(lambda: not prover.running, what="the prover to end with nothing to prove")
    assert search_threads() == [] and children() == []
    deals.take(1)
    prover.want(1)
    until(lambda: deals.count(1) >= 5, what="a new proof")
    until(lambda: not prover.running, what="the prover to end again")
    assert search_threads() == [] and children() == []



def test_a_child_stops_by_itself_once_the_app_that_asked_is_gone(monkeypatch):
    """An app killed mid-search (kill -9, no atexit) leaves no search running for minutes: the
    child's searches stop as soon as its parent is another process (it was orphaned)."""
    from spider_tui import search_child

    gone = search_child.ParentGone()
    monkeypatch.setattr(search_child, "GONE", gone)
    assert not gone.is_set()
    monkeypatch.setattr(search_child.os, "getppid", lambda: gone.parent + 1)
    assert gone.is_set()
    found = search_child.answer({"job": "solve", "seconds": 600, "position": Game.new(8, suits=4).to_text()})
    assert found["result"] == "unknown" and found["nodes"] < 1000
    assert search_child.answer({"job": "prove", "seconds": 600, "suits": 4, "number": 8}) == {"winnable": False}
    assert search_child.answer({"job": "find", "seconds": 600, "suits": 4, "seed": 1, "tries": 5}) == {"number": None}


def test_the_app_kills_its_searching_children_when_it_exits():
    import subprocess
    import sys

    script = (
        "import threading, sys\n"
        "from spider_tui import search\n"
        "from spider_tui.engine import Game\n"
        "threading.Thread(target=search.solve, args=(Game.new(8, suits=4), 600), daemon=True).start()\n"
        "import time\n"
        "while not search._live: time.sleep(0.01)\n"
        "print(next(iter(search._live)).pid, flush=True)\n"
    )
    app = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=search._env(), timeout=120)
    child = int(app.stdout.split()[0])

    def gone() -> bool:
        try:
            with open(f"/proc/{child}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return True

    until(gone, 30, "the child to be killed at exit")
