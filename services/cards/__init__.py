"""cards: definitions (read model), owned copies, decks, rewards, packs, wallet."""
