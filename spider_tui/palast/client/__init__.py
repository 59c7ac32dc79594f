"""The Palast's client side (SPEC §13): what a player's program runs.

- ``client``: ``PalastClient``, a headless async client (the bots, the tests and the app use it);
- ``session``: the Palast from the player's side (lobby, seat, race, standings) for the screens;
- ``bots``: the bot players of ``spider bots``.
"""

from .client import PalastClient, Received, Refused

__all__ = ["PalastClient", "Received", "Refused"]
