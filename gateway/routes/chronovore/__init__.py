"""Chronovore's routes: the library and a player's decks (``cards.py``), matches against
the computer (``matches.py``), shredding and crafting (``crafting.py``); docs/chronovore.md,
"The API"."""
