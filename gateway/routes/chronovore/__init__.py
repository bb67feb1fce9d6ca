"""Chronovore's routes: the library and a player's decks (``cards.py``), matches against
the computer (``matches.py``); docs/chronovore.md, "The API"."""
