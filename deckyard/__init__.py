"""The ``deckyard`` command: run, migrate, mint development tokens."""
