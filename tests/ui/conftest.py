"""UI test fixtures: a fresh data dir per test (never the real one), an app factory."""

from __future__ import annotations

import random
from types import SimpleNamespace
from datetime import date

import pytest

from spider_tui.store import SaveFile
from spider_tui.ui.app import SpiderApp
from spider_tui.ui_launch import Launch
from tests.positions import NEARLY_WON  # noqa: F401 - the UI tests import it from here

TODAY = date(2026, 11, 29)



@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    return d


@pytest.fixture
def make_app(data_dir):
    def make(**launch) -> SpiderApp:
        app = SpiderApp(SaveFile(data_dir / "save.toml"), Launch(**launch), today=lambda: TODAY, rng=random.Random(5))
        listen(app)
        return app

    return make


def listen(app) -> list:
    """Record every notification the app gives in ``app.told`` (message, markup, severity),
    through its public ``notify``."""
    told: list = []
    real = app.notify

    def notify(message, *args, **kwargs):
        told.append(SimpleNamespace(message=message, markup=kwargs.get("markup", True),
                                    severity=kwargs.get("severity", "information")))
        return real(message, *args, **kwargs)

    app.notify = notify
    app.told = told
    return told


def play_for(table, seconds: float) -> None:
    """Let ``seconds`` of play time pass on a running ``table`` (through its public ``clock``)."""
    real = table.clock
    table.clock = lambda: real() + seconds

