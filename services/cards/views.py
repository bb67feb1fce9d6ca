"""What players see of their cards: plain dicts the RPC schemas dump."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.quest import decks as deck_rules
from services.cards.deck_store import Deck
from services.cards.ownership_store import StarterGrant


def copy_view(copy: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": copy["id"],
        "definition_id": copy["definition_id"],
        "name": copy["name"],
        "kind": copy["kind"],
        "rarity": copy["rarity"],
        "affinity": copy["affinity"],
        "acquired_at": copy["acquired_at"],
        "source": {"type": copy["source_type"], "id": copy["source_id"]},
    }


def deck_card(copy: Mapping[str, Any]) -> deck_rules.DeckCard:
    return deck_rules.DeckCard(copy["id"], copy["kind"], copy["rarity"])


def deck_view(deck: Deck, owned: Mapping[Any, Mapping[str, Any]]) -> dict[str, Any]:
    """A saved deck, its cards, and its legality assessed again now."""
    assessment = deck_rules.assess(
        deck.copy_ids, {copy_id: deck_card(copy) for copy_id, copy in owned.items()}
    )
    return {
        "id": deck.id,
        "name": deck.name,
        "version": deck.version,
        "created_at": deck.created_at,
        "updated_at": deck.updated_at,
        "cards": [copy_view(owned[copy_id]) for copy_id in deck.copy_ids if copy_id in owned],
        "cost": assessment.cost,
        "legal": assessment.legal,
        "problems": [{"code": p.code, "message": p.message} for p in assessment.problems],
    }


def starter_view(grant: StarterGrant, copies: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "affinity": grant.affinity,
        "granted_at": grant.granted_at,
        "cards": [copy_view(copy) for copy in copies],
    }


def collection_view(
    player_id: Any, copies: Iterable[Mapping[str, Any]], starter: StarterGrant | None
) -> dict[str, Any]:
    """The player's copies grouped by definition, each group with its count."""
    groups: dict[Any, dict[str, Any]] = {}
    total = 0
    for copy in copies:
        total += 1
        group = groups.setdefault(
            copy["definition_id"],
            {
                "definition": {
                    "id": copy["definition_id"],
                    "name": copy["name"],
                    "kind": copy["kind"],
                    "rarity": copy["rarity"],
                    "affinity": copy["affinity"],
                    "retired": copy["retired_at"] is not None,
                },
                "count": 0,
                "copies": [],
            },
        )
        group["count"] += 1
        group["copies"].append(
            {
                "id": copy["id"],
                "acquired_at": copy["acquired_at"],
                "source": {"type": copy["source_type"], "id": copy["source_id"]},
            }
        )
    return {
        "player_id": player_id,
        "starter_affinity": starter.affinity if starter else None,
        "total_copies": total,
        "definitions": list(groups.values()),
    }
