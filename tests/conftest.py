"""Suite-wide fixtures: a real, throwaway PostgreSQL cluster (tests/pgcluster.py).

``pg_cluster`` starts one cluster per test session; ``pg_url`` gives each test its own fresh
database in it. Where PostgreSQL can't run, tests that use them are skipped and the reason is
printed in the header and at the end of the run (never a silent pass); with
``SPIDER_REQUIRE_POSTGRESQL=1`` (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pgcluster import PgCluster, PgUnavailable, find_bindir

_pg_skip_reason: list[str] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (long floods and attacks) run only with ``SPIDER_SLOW=1``."""
    if os.environ.get("SPIDER_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set SPIDER_SLOW=1 to run it")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"postgresql: {find_bindir()} (PostgreSQL tests run against a throwaway cluster)"
    except PgUnavailable as exc:
        return f"postgresql: SKIPPING PostgreSQL tests: {exc}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
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
