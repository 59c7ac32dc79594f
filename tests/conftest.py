"""Suite-wide fixtures: the test layers, and a real, throwaway PostgreSQL cluster (tests/pgcluster.py).

The layers by cost (markers registered in pyproject.toml): ``pty`` (a real ``spider`` in a
pseudo-terminal), ``pilot`` (Textual's Pilot and the snapshots), ``socket`` (a real server on
127.0.0.1), ``postgres`` (the throwaway cluster), ``search`` (the solver, the prover and the fair
bot searching deals to their end, seconds a test). What is in none of them is ``fast``:
``pytest -m fast`` is the fast layer (engine, store, Table, session, CLI, wire, protocol, the
Palast's tables in-process, and the doctests). ``slow`` is another thing: long floods and
attacks, skipped unless ``SPIDER_SLOW=1``. They are given here by folder, file and fixture (a test written
with one of the markers keeps it), so each layer runs alone: ``pytest -m pilot``.

``pg_cluster`` starts one cluster per test session; ``pg_url`` gives each test its own fresh
database in it. Where PostgreSQL can't run, tests that use them are skipped and the reason is
printed in the header and at the end of the run (never a silent pass); with
``SPIDER_REQUIRE_POSTGRESQL=1`` (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.pgcluster import PgCluster, PgUnavailable, find_bindir

# Property tests never race the clock: a busy machine (or a first call that loads data) must not
# fail them, so no example has a deadline, suite-wide (a test's own @settings keeps this unless
# it names a deadline itself), and hypothesis's too_slow health check, a timing too, is off.
settings.register_profile("spider", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "spider"))

_pg_skip_reason: list[str] = []

# Where a whole folder or file belongs to a layer (paths under tests/, longest match wins; "" = fast).
_LAYER_BY_PATH: dict[str, tuple[str, ...]] = {
    "ui": ("pilot",),
    "ui/test_wire.py": (),
    "palast": ("socket",),
    "palast/test_protocol.py": (),
    "palast/test_db.py": (),
    "palast/test_tables_in_process.py": (),
    "palast/test_app.py": ("socket", "pilot"),
    "palast/test_palast_help.py": ("socket", "pilot"),
    "palast/test_palast_snapshots.py": ("socket", "pilot"),
    "palast/test_pty_race.py": ("socket", "pty"),
    "web": ("socket",),
    "web/test_web_tab.py": ("pilot",),
    "web/test_web_pty.py": ("socket", "pty"),
    "test_pty.py": ("pty",),
    "test_pty_newcomer.py": ("pty",),
    "test_pty_wire.py": ("pty",),
    "test_pty_typeahead.py": ("pty",),
    "test_pgcluster.py": ("postgres",),
    # the solver, the prover and the fair bot searched to the end of deals (seconds each)
    "test_winnable.py": ("search",),
    "test_search.py": ("search",),
    "test_solve_cli.py": ("search",),
    "test_review.py": ("search",),
    "engine/test_solve.py": ("search",),
    "engine/test_fairbot.py": ("search",),
}
# Fixtures that put a test into a layer wherever it is written.
_LAYER_BY_FIXTURE = {"pg_url": "postgres", "pg_cluster": "postgres", "snap_compare": "pilot"}
LAYERS = ("pty", "pilot", "socket", "postgres", "search")
_TESTS = os.path.dirname(os.path.abspath(__file__))


def layers_of(item: pytest.Item) -> set[str]:
    """The cost layers of one collected test (empty: the fast layer)."""
    found = {m.name for m in item.iter_markers() if m.name in LAYERS}
    rel = os.path.relpath(str(item.path), _TESTS).replace(os.sep, "/")
    best = None
    for key in _LAYER_BY_PATH:
        if (rel == key or rel.startswith(key + "/")) and (best is None or len(key) > len(best)):
            best = key
    if best is not None:
        found.update(_LAYER_BY_PATH[best])
    found.update(layer for name, layer in _LAYER_BY_FIXTURE.items() if name in getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("db_url") == "postgresql":  # tests/palast's db_url
        found.add("postgres")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test gets its cost layers, or ``fast``; tests marked ``slow`` (long floods and
    attacks) run only with ``SPIDER_SLOW=1``."""
    run_slow = os.environ.get("SPIDER_SLOW") == "1"
    skip = pytest.mark.skip(reason="slow: set SPIDER_SLOW=1 to run it")
    for item in items:
        found = layers_of(item)
        for layer in sorted(found):
            item.add_marker(getattr(pytest.mark, layer))
        if not found:
            item.add_marker(pytest.mark.fast)
        if not run_slow and item.get_closest_marker("slow"):
            item.add_marker(skip)


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"postgresql: {find_bindir()} (PostgreSQL tests run against a throwaway cluster)"
    except PgUnavailable as exc:
        return f"postgresql: SKIPPING PostgreSQL tests: {exc}"


def left_out_line(markexpr: str, deselected: int) -> str | None:
    """What a layer run (``pytest -m fast``) left out, said at the end of the run: the skips say
    their reasons themselves (``-rs``), this says the rest.

    >>> left_out_line("fast", 900)
    "-m 'fast' left out 900 tests of the other layers (pty, pilot, socket, postgres, search); plain pytest runs them all."
    >>> left_out_line("", 0) is None
    True
    """
    if not markexpr or not deselected:
        return None
    others = ", ".join(layer for layer in LAYERS if layer not in markexpr.split()) or "none"
    return (f"-m {markexpr!r} left out {deselected} tests of the other layers ({others}); "
            "plain pytest runs them all.")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    said = left_out_line(config.getoption("markexpr", "") or "", len(terminalreporter.stats.get("deselected", [])))
    if said:
        terminalreporter.write_line(said, yellow=True)
    if _pg_skip_reason:
        skipped = [r for r in terminalreporter.stats.get("skipped", []) if "PostgreSQL" in str(r.longrepr)]
        terminalreporter.write_line(
            f"PostgreSQL tests skipped ({len(skipped)}): {_pg_skip_reason[0]}", yellow=True, bold=True
        )


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One PostgreSQL server for the whole session (skips, with the reason, where impossible)."""
    if _pg_skip_reason:
        pytest.skip(_pg_skip_reason[0])
    try:
        cluster = PgCluster().start()
    except (PgUnavailable, OSError) as exc:
        if os.environ.get("SPIDER_REQUIRE_POSTGRESQL") == "1":  # CI: these tests must run for real
            pytest.fail(f"PostgreSQL required (SPIDER_REQUIRE_POSTGRESQL=1) but unavailable: {exc}")
        _pg_skip_reason.append(f"PostgreSQL unavailable: {exc}")
        pytest.skip(_pg_skip_reason[0])
    try:
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> Iterator[str]:
    """A fresh empty database for one test: its ``postgresql://`` URL."""
    url = pg_cluster.create_database()
    yield url
    pg_cluster.drop_database(url)
