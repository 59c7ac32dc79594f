"""Fixtures for the store tests. Nothing here may touch the real user data directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from spider_tui.store import SaveFile, save_path


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point SPIDER_DATA_DIR (and XDG_DATA_HOME, platformdirs' source on Linux) at temp dirs."""
    base = tmp_path_factory.mktemp("user")
    env_dir = base / "spider-data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(env_dir))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
    return env_dir


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A fresh, not yet existing data directory inside the test's tmp dir."""
    return tmp_path / "data"


@pytest.fixture
def save(data_dir: Path) -> SaveFile:
    """A SaveFile in :func:`data_dir` (no file on disk yet)."""
    return SaveFile(save_path(data_dir))
