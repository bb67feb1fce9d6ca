"""What players see of their cards: plain dicts the RPC schemas dump."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.kit.collection import CardCopy, CollectionRules
from services.cards.deck_store import Deck
from services.cards.ownership_store import StarterGrant
from services.cards.repository import DefinitionRepository

# A card's face by (game, definition id): a published definition never changes under its
# id (a new version has a new one), so a face is computed once a process. Bounded:
# emptied when full.
_FACES: dict[tuple[str, str], dict[str, Any]] = {}
_FACES_KEPT = 4096
Faces = Mapping[str, dict[str, Any]]


def card_face(rules: CollectionRules, definition: Mapping[str, Any]) -> dict[str, Any]:
    """What a player reads on a card beyond its name, kind and rarity (the game's
    ``card_face``: Chronovore's keywords with their definitions); ``definition`` has
    ``id``, ``kind`` and ``snapshot``."""
    if rules.card_face is None:
        return {}
    key = (rules.game, str(definition["id"]))
    face = _FACES.get(key)
    if face is None:
        if len(_FACES) >= _FACES_KEPT:
            _FACES.clear()
        face = _FACES[key] = rules.card_face(definition["kind"], definition["snapshot"])
    return face


def card_faces(
    rules: CollectionRules, definitions: DefinitionRepository, cards: Iterable[Mapping[str, Any]]
) -> Faces:
    """The face of each card's definition (``definition_id``, ``kind``), by definition id
    as text; none for a game without faces (no query then)."""
    if rules.card_face is None:
        return {}
    kinds = {str(card["definition_id"]): card["kind"] for card in cards}
    snapshots = definitions.snapshots([uuid.UUID(d) for d in kinds])
    return {
        str(d): card_face(rules, {"id": d, "kind": kinds[str(d)], "snapshot": snapshot})
        for d, snapshot in snapshots.items()
    }


def with_face(card: Mapping[str, Any], faces: Faces) -> dict[str, Any]:
    """``card`` (a copy, a collection's definition, an opened card) with the face of its
    definition (``definition_id``, else ``id``); a copy, so a cached face is never shared."""
    face = faces.get(str(card.get("definition_id", card.get("id"))), {})
    return {**card, **deepcopy(face)}


def copy_view(copy: Mapping[str, Any], faces: Faces | None = None) -> dict[str, Any]:
    return with_face(
        {
            "id": copy["id"],
            "definition_id": copy["definition_id"],
            "name": copy["name"],
            "kind": copy["kind"],
            "rarity": copy["rarity"],
            "affinity": _affinity(copy),
            "acquired_at": copy["acquired_at"],
            "source": {"type": copy["source_type"], "id": copy["source_id"]},
        },
        faces or {},
    )


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
    deck: Deck,
    owned: Mapping[Any, Mapping[str, Any]],
    rules: CollectionRules,
    faces: Faces | None = None,
) -> dict[str, Any]:
    """A saved deck, its cards (each with its face), and its legality assessed again now
    by its game's rules."""
    assessment = rules.assess_deck(deck.copy_ids, deck_cards(deck.game, owned))
    return {
        "id": deck.id,
        "name": deck.name,
        "version": deck.version,
        "created_at": deck.created_at,
        "updated_at": deck.updated_at,
        "cards": [
            copy_view(owned[copy_id], faces) for copy_id in deck.copy_ids if copy_id in owned
        ],
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
    player_id: Any,
    copies: Iterable[Mapping[str, Any]],
    starter: StarterGrant | None,
    faces: Faces | None = None,
) -> dict[str, Any]:
    """The player's copies grouped by definition (with its face), each with its count."""
    groups: dict[Any, dict[str, Any]] = {}
    total = 0
    for copy in copies:
        total += 1
        group = groups.get(copy["definition_id"])
        if group is None:
            group = groups[copy["definition_id"]] = {
                "definition": with_face(
                    {
                        "id": copy["definition_id"],
                        "name": copy["name"],
                        "kind": copy["kind"],
                        "rarity": copy["rarity"],
                        "affinity": _affinity(copy),
                        "retired": copy["retired_at"] is not None,
                    },
                    faces or {},
                ),
                "count": 0,
                "copies": [],
            }
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
