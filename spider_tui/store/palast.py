"""The Palast part of the save file (SPEC §13): the player's name and token per server, and the
last server used.

.. code-block:: toml

    [palast]
    last = "ws://127.0.0.1:8765"      # the last server used, or "here": the Palast on this computer

    [palast.servers.here]             # the Palast on this computer (the embedded one; its port changes)
    name = "Anna"
    token = "…"

    [palast.servers."ws://127.0.0.1:8765"]
    name = "Anna"
    token = "u53JU5…"                 # the secret the server gave at the first visit

Readers forgive: a value of the wrong type reads as missing; other keys are kept.
"""

from __future__ import annotations

from typing import Any

DEFAULT_SERVER = "ws://127.0.0.1:8765"
#: The key the Palast on this computer (``spider_tui.palast.embedded``) is kept under, as a login
#: and as ``last``: its port changes every time it starts.
HERE = "here"


def _palast(data: dict[str, Any]) -> dict[str, Any]:
    p = data.get("palast")
    return p if isinstance(p, dict) else {}


def last_server(data: dict[str, Any]) -> str | None:
    """The last server used, by its address (None when none, or when it was the one here)."""
    last = _palast(data).get("last")
    return last if isinstance(last, str) and last and last != HERE else None


def last_was_here(data: dict[str, Any]) -> bool:
    """The last Palast used was the one on this computer (and a login for it is kept)."""
    return _palast(data).get("last") == HERE and server_login(data, HERE) is not None


def server_login(data: dict[str, Any], url: str) -> tuple[str, str] | None:
    """``(name, token)`` kept for ``url``, or None (a first visit)."""
    servers = _palast(data).get("servers")
    entry = servers.get(url) if isinstance(servers, dict) else None
    if not isinstance(entry, dict):
        return None
    name, token = entry.get("name"), entry.get("token")
    if isinstance(name, str) and isinstance(token, str) and name and token:
        return name, token
    return None


def put_login(data: dict[str, Any], url: str, name: str, token: str, last: bool = True) -> None:
    """Keep ``name`` and ``token`` for ``url`` and (``last``) remember it as the last server."""
    p = data.get("palast")
    if not isinstance(p, dict):
        p = data["palast"] = {}
    servers = p.get("servers")
    if not isinstance(servers, dict):
        servers = p["servers"] = {}
    entry = servers.get(url)
    entry = dict(entry) if isinstance(entry, dict) else {}
    entry.update(name=name, token=token)
    servers[url] = entry
    if last:
        p["last"] = url


def put_last(data: dict[str, Any], url: str) -> None:
    p = data.get("palast")
    if not isinstance(p, dict):
        p = data["palast"] = {}
    p["last"] = url
