"""What players see of their cards: plain dicts the RPC schemas dump."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.kit.collection import CardCopy, CollectionRules
from services.cards.deck_store import Deck
from services.cards.ownership_store import StarterGrant


def copy_view(copy: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": copy["id"],
        "definition_id": copy["definition_id"],
        "name": copy["name"],
        "kind": copy["kind"],
        "rarity": copy["rarity"],
        "affinity": _affinity(copy),
        "acquired_at": copy["acquired_at"],
        "source": {"type": copy["source_type"], "id": copy["source_id"]},
    }


def _affinity(copy: Mapping[str, Any]) -> Any:
    # The API's one game attribute so far (Quest's); other games' attributes are not
    # shown until their routes say how.
    return copy["attributes"].get("affinity")


def deck_card(copy: Mapping[str, Any]) -> CardCopy:
    return CardCopy(
        copy["id"],
        copy["kind"],
        copy["rarity"],
        copy["finish"],
        copy["attributes"],
        card=copy.get("lineage_id"),
    )


def deck_cards(game: str, owned: Mapping[Any, Mapping[str, Any]]) -> dict[Any, CardCopy]:
    """The copies a deck of ``game`` may hold: another game's copy reads as not owned."""
    return {copy_id: deck_card(copy) for copy_id, copy in owned.items() if copy["game"] == game}


def deck_view(
    deck: Deck, owned: Mapping[Any, Mapping[str, Any]], rules: CollectionRules
) -> dict[str, Any]:
    """A saved deck, its cards, and its legality assessed again now by its game's rules."""
    assessment = rules.assess_deck(deck.copy_ids, deck_cards(deck.game, owned))
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
                    "affinity": _affinity(copy),
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
                "finish": copy["finish"],
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
