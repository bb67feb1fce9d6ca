"""Pure rules of the cards service."""
