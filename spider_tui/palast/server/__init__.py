"""The Palast's server side (SPEC §13): the only side that holds whole games (hidden cards).

- ``server``: the asyncio WebSocket server (connections, limits, hello, answers);
- ``tables``: a table's life (lobby, seats, rounds, standings) on top of the engine;
- ``house``: the house bots; ``league``: OpenSkill ratings from finished tables;
- ``broker``, ``pg_broker``, ``cluster``: table events to the connections, across processes;
- ``db``: the storage (SQLite, PostgreSQL), the truth; ``embedded``: a server inside the app.
"""
