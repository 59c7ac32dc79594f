"""Where the save file lives (SPEC §8).

The data directory is chosen in this order: the ``--data-dir`` command-line value, then the
``SPIDER_DATA_DIR`` environment variable, then the platform's user data directory for the app name
``spider-tui`` (``platformdirs.user_data_dir``). Nothing here touches the disk: the directory is
created by :class:`spider_tui.store.savefile.SaveFile` on its first write.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "spider-tui"
ENV_VAR = "SPIDER_DATA_DIR"
SAVE_NAME = "save.toml"


def resolve_data_dir(cli_value: str | os.PathLike[str] | None,
                     env: Mapping[str, str] = os.environ) -> Path:
    """Return the data directory: ``--data-dir`` wins, else ``$SPIDER_DATA_DIR``, else platformdirs.

    Empty values count as not given. ``~`` is expanded in the first two.

    >>> resolve_data_dir("/tmp/x", env={"SPIDER_DATA_DIR": "/tmp/y"})
    PosixPath('/tmp/x')
    >>> resolve_data_dir(None, env={"SPIDER_DATA_DIR": "/tmp/y"})
    PosixPath('/tmp/y')
    """
    if cli_value is not None and os.fspath(cli_value) != "":
        return Path(cli_value).expanduser()
    from_env = env.get(ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME))


def save_path(data_dir: str | os.PathLike[str]) -> Path:
    """The save file inside ``data_dir``: ``data_dir / "save.toml"``."""
    return Path(data_dir) / SAVE_NAME
