"""Quest's routes: events near you, attempts, your cards and decks, CPU battles."""
