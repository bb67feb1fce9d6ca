"""gateway: the public HTTP API of Deckyard."""
