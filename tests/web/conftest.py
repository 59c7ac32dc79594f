"""Fixtures for ``spider web``: a real server (``python -m spider_tui web``) on a free loopback port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

START_WAIT = 60.0  # seconds: generous, the machine may be busy


@dataclass
class WebServer:
    """A running ``spider web``: its URL, process and data dir; ``stop()`` is Ctrl+C."""

    url: str
    process: subprocess.Popen
    data_dir: Path
    out: list[str] = field(default_factory=list)

    def stop(self, timeout: float = 30.0) -> int:
        """Ctrl+C as a terminal sends it: SIGINT to the whole process group (the tabs' apps too)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout)

    def output(self) -> str:
        return "".join(self.out)


def start_server(data_dir: Path, *args: str) -> WebServer:
    """Start ``spider web --port 0`` in its own process group; return once it has said it serves."""
    process = subprocess.Popen(
        [sys.executable, "-m", "spider_tui", "web", "--port", "0", "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    out: list[str] = []
    found = threading.Event()

    def read() -> None:
        for line in process.stdout:
            out.append(line)
            if "Ctrl+C" in line:  # the last line of the start message
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(START_WAIT) or process.poll() is not None:
        process.kill()
        raise AssertionError("spider web did not start:\n" + "".join(out))
    url = re.search(r"http://\S+", "".join(out)).group(0)
    return WebServer(url, process, data_dir, out)


@pytest.fixture
def web_server(tmp_path):
    server = start_server(tmp_path / "data")
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    """Headless Debian Chromium via Playwright, with a fresh user data dir; skipped (with the
    reason, printed at the end of the run) where there is none."""
    from .browser import CHROMIUM_ARGS, chromium_path, why_no_browser

    reason = why_no_browser()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=chromium_path(), headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1100, "height": 700},
        )
        yield context
        context.close()


def pytest_terminal_summary(terminalreporter):
    """A skipped browser test says why at the end of the run, never silently."""
    for report in terminalreporter.stats.get("skipped", []):
        if "test_browser" in report.nodeid or "test_browser" in str(report.location[0]):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            terminalreporter.write_line(f"BROWSER TEST SKIPPED: {report.nodeid}: {reason}", yellow=True, bold=True)
