"""The Palast (SPEC §13): live tables over a network, without Textual.  The folders say who runs
where; what both sides share is here.

- ``messages``: every message, both ways, one typed definition each (the server builds what it
  sends from them, the client checks what it receives against them);
- ``protocol``: protocol version 1's rules for what a client sends (the server's refusals);
- ``names``: the rules of a player name (the client checks one before it registers it);
- ``server/``: the server side (server, tables, house bots, league, brokers, db/);
- ``client/``: the client side (the headless client, the player's session, the bot players);
- ``cli``: ``spider server``, ``spider league`` and ``spider bots``.
"""

#: The HTTP header that carries a private server's secret (the embedded Palast, SPEC §13).
KEY_HEADER = "X-Spider-Key"
