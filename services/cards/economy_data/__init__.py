"""Economy configuration as data: currencies and their limits, pack kinds (docs/economy.md)."""
