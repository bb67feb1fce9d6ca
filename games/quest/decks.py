"""Quest saved decks (rulebook: "Saved decks"): pure legality rules.

A legal deck is five distinct owned copies, three Creatures and two Power
cards, with a combined rarity cost of at most 10. Each rule has a stable code,
so a refusal names the rule broken; a read of a saved deck shows the same
assessment (legality and cost).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from games.kit import collection
from games.kit.collection import Assessment, CardCopy, Problem
from games.quest.content import CardKind, Rarity

DECK_SIZE = 5
DECK_CREATURES = 3
DECK_POWER_CARDS = 2
MAX_DECK_COST = 10
RARITY_COST: Mapping[str, int] = {
    Rarity.COMMON: 1,
    Rarity.RARE: 2,
    Rarity.EPIC: 3,
    Rarity.LEGENDARY: 4,
}

# Ours (assumed): the rulebook sets no limit; a bound keeps a player's deck list a
# small read and stops a script from filling the table.
MAX_DECKS_PER_PLAYER = 20
MAX_DECK_NAME_LENGTH = 40


# One owned copy, as far as deck rules care (Quest reads its kind and rarity only).
DeckCard = CardCopy
__all__ = ["Assessment", "DeckCard", "Problem", "assess", "clean_name", "require_legal"]


def deck_cost(cards: Sequence[DeckCard]) -> int:
    return sum(RARITY_COST[card.rarity] for card in cards)


def assess(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, DeckCard]) -> Assessment:
    """Every rule the deck breaks, in a fixed order; ``owned`` is the caller's own copies."""
    problems: list[Problem] = []
    if len(copy_ids) != DECK_SIZE:
        problems.append(
            Problem("deck_size", f"a deck has exactly {DECK_SIZE} cards, not {len(copy_ids)}")
        )
    problems += collection.ownership_problems(copy_ids, owned)
    missing = [copy_id for copy_id in dict.fromkeys(copy_ids) if copy_id not in owned]
    cards = [owned[copy_id] for copy_id in dict.fromkeys(copy_ids) if copy_id in owned]
    creatures = sum(1 for card in cards if card.kind == CardKind.CREATURE)
    power_cards = sum(1 for card in cards if card.kind == CardKind.POWER_CARD)
    if (
        len(copy_ids) == DECK_SIZE
        and not missing
        and (creatures, power_cards)
        != (
            DECK_CREATURES,
            DECK_POWER_CARDS,
        )
    ):
        problems.append(
            Problem(
                "deck_composition",
                f"a deck has {DECK_CREATURES} Creatures and {DECK_POWER_CARDS} Power cards, "
                f"not {creatures} and {power_cards}",
            )
        )
    cost = deck_cost(cards)
    if cost > MAX_DECK_COST:
        problems.append(
            Problem("deck_cost_exceeded", f"the deck costs {cost}; at most {MAX_DECK_COST}")
        )
    return Assessment(not problems, cost, tuple(problems))


def require_legal(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, DeckCard]) -> Assessment:
    """The assessment of a legal deck; otherwise a refusal named after the first rule broken."""
    return collection.require_legal(assess(copy_ids, owned))


def clean_name(name: str) -> str:
    """A deck name: trimmed, 1-40 characters, no control characters."""
    return collection.clean_deck_name(name, MAX_DECK_NAME_LENGTH)
