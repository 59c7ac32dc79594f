"""Where the save file lives (SPEC §8): --data-dir, then SPIDER_DATA_DIR, then platformdirs."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from spider_tui.store import resolve_data_dir, save_path


def test_cli_value_wins_over_env():
    assert resolve_data_dir("/a/cli", env={"SPIDER_DATA_DIR": "/b/env"}) == Path("/a/cli")


def test_env_used_without_cli_value():
    assert resolve_data_dir(None, env={"SPIDER_DATA_DIR": "/b/env"}) == Path("/b/env")


def test_empty_values_count_as_not_given():
    assert resolve_data_dir("", env={"SPIDER_DATA_DIR": "/b/env"}) == Path("/b/env")
    assert resolve_data_dir(None, env={"SPIDER_DATA_DIR": ""}) == Path(platformdirs.user_data_dir("spider-tui"))


def test_platformdirs_fallback():
    assert resolve_data_dir(None, env={}) == Path(platformdirs.user_data_dir("spider-tui"))


def test_tilde_is_expanded():
    assert resolve_data_dir("~/spider", env={}) == Path(os.path.expanduser("~/spider"))


def test_default_env_is_os_environ_and_points_at_tmp(_isolated_user_dirs):
    assert resolve_data_dir(None) == _isolated_user_dirs


def test_save_path():
    assert save_path(Path("/x/y")) == Path("/x/y/save.toml")
    assert save_path("/x/y") == Path("/x/y/save.toml")
