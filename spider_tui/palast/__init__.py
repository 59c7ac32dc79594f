"""The Palast (SPEC §13): live tables over a network, without Textual.

- ``protocol``: the messages of protocol version 1 and their validation.
- ``db``: the storage interface (the database is the truth) and its SQLite implementation.
- ``broker``: the seam that carries table events to the connections (in-process here).
- ``tables``: a table's life (lobby, seats, rounds, standings) on top of the engine.
- ``server``: the asyncio WebSocket server; the only place that knows hidden cards.
- ``league``: OpenSkill (Plackett–Luce) ratings from finished tables.
- ``client``: a headless async client; ``bots``: hint-playing bot players.
"""
