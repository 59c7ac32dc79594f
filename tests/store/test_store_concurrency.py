"""Two processes at once (two SSH logins) lose no result; a writer killed mid-write loses no save."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

from spider_tui.store import RoundResult, SaveFile, record_result, summary

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="needs the fork start method")


def _ctx():
    return multiprocessing.get_context("fork")


def _record_many(path: str, suits: int, count: int, barrier) -> None:
    save = SaveFile(path, lock_timeout=60)
    barrier.wait(timeout=30)
    for i in range(count):
        result = RoundResult(suits=suits, won=i % 2 == 0, moves=100 + i, seconds=1.0)
        save.update(lambda data: record_result(data, result))


def _killed_before_rename(path: str) -> None:
    """Write a new save but die between the temp file's fsync and the rename."""
    os.replace = lambda src, dst: os._exit(7)  # noqa: ARG005 - the process dies right here
    SaveFile(path).update(lambda data: record_result(data, RoundResult(suits=1, won=True, moves=1, seconds=1)))
    os._exit(0)  # not reached


def test_two_processes_fifty_results_each(save):
    ctx = _ctx()
    barrier = ctx.Barrier(2)
    workers = [ctx.Process(target=_record_many, args=(str(save.path), suits, 50, barrier)) for suits in (1, 4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    s = summary(save.load())
    assert s["suits"]["1"]["played"] == 50 and s["suits"]["4"]["played"] == 50
    assert s["suits"]["1"]["played"] + s["suits"]["4"]["played"] == 100
    assert s["suits"]["1"]["won"] == s["suits"]["4"]["won"] == 25
    assert s["suits"]["1"]["fewest_moves"] == 100
    assert s["total_play_seconds"] == 100.0


def test_two_processes_same_suit_count(save):
    ctx = _ctx()
    barrier = ctx.Barrier(2)
    workers = [ctx.Process(target=_record_many, args=(str(save.path), 2, 50, barrier)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    assert summary(save.load())["suits"]["2"]["played"] == 100


def test_threads_in_one_process(save):
    def work():
        mine = SaveFile(save.path)
        for _ in range(20):
            mine.update(lambda d: record_result(d, RoundResult(suits=1, won=False, moves=3, seconds=0.5)))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert summary(save.load())["suits"]["1"]["played"] == 60


def test_writer_killed_before_rename(save, data_dir):
    save.update(lambda d: record_result(d, RoundResult(suits=1, won=False, moves=5, seconds=2)))
    before = save.path.read_bytes()
    child = _ctx().Process(target=_killed_before_rename, args=(str(save.path),))
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 7
    assert save.path.read_bytes() == before  # the old save, whole
    strays = list(data_dir.glob(".save.toml.*.tmp"))
    assert len(strays) == 1  # the dead writer's complete temp file, never read as the save
    data = SaveFile(save.path).load()
    assert summary(data)["suits"]["1"]["played"] == 1 and summary(data)["suits"]["1"]["won"] == 0
    save.update(lambda d: record_result(d, RoundResult(suits=1, won=False, moves=5, seconds=2)))
    assert not list(data_dir.glob(".save.toml.*.tmp"))
    assert summary(save.load())["suits"]["1"]["played"] == 2
