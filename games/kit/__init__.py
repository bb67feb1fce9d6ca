"""What every game shares: the engine protocol, the seeded chance stream, refusals."""
