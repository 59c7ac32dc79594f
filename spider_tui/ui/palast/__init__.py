"""The Palast screens (SPEC §13): connect and name, the lobby (tables, open, join, league, the
seat, standings, the final ranking) and the race.  They render a ``PalastSession``; every rule
and every message lives in ``spider_tui.palast``. Their screen text is here: ``lines.py`` (the
lobby's, the standings' and the opponents' lines), ``open_form.py`` (the Open a table form)."""
