"""Cards use cases: plain functions over a unit of work."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from services.cards.repository import CardsUnitOfWork, Collection
from shared.content import CARD_KINDS
from shared.errors import NotFound
from shared.events import Event

PLAYER_REGISTERED_CONSUMER = "cards.create_collection"
CONTENT_PUBLISHED_CONSUMER = "cards.card_definition_published"
CONTENT_RETIRED_CONSUMER = "cards.card_definition_retired"


@dataclass(frozen=True)
class GetCollection:
    player_id: uuid.UUID


def create_collection(event: Event, uow: CardsUnitOfWork) -> bool:
    """Give a newly registered player an empty collection, once per event.

    Returns False when this event was already applied (a redelivery).
    """
    if not uow.inbox.first_delivery(event.event_id, PLAYER_REGISTERED_CONSUMER):
        return False
    if not uow.players.admits(event.data["player_id"]):
        return False  # registered, then deleted before this arrived: no collection
    uow.collections.create_if_missing(
        Collection(player_id=event.data["player_id"], created_at=event.data["registered_at"])
    )
    return True


def get_collection(cmd: GetCollection, uow: CardsUnitOfWork) -> Collection:
    collection = uow.collections.get(cmd.player_id)
    if collection is None:
        raise NotFound("collection_not_found", "this player has no collection yet")
    return collection


def record_published_definition(event: Event, uow: CardsUnitOfWork) -> bool:
    """Keep a published card definition (other kinds of content are not ours)."""
    if not uow.inbox.first_delivery(event.event_id, CONTENT_PUBLISHED_CONSUMER):
        return False
    data = event.data
    if data["kind"] not in CARD_KINDS:
        return False
    snapshot = data["snapshot"]
    uow.definitions.add_published(
        {
            "id": data["content_id"],
            "lineage_id": data["lineage_id"],
            "game": data["game"],
            "kind": data["kind"],
            "name": snapshot["name"],
            "rarity": snapshot["rarity"],
            "affinity": snapshot.get("affinity"),
            "reward_eligible": bool(snapshot.get("reward_eligible")),
            "evolved": bool(snapshot.get("evolved")),
            "starter": bool(snapshot.get("starter")),
            "version": data["version"],
            "snapshot": snapshot,
            "published_at": data["published_at"],
        }
    )
    return True


def record_retired_definition(event: Event, uow: CardsUnitOfWork) -> bool:
    """A retired definition is no longer offered; owned copies of it stay."""
    if not uow.inbox.first_delivery(event.event_id, CONTENT_RETIRED_CONSUMER):
        return False
    if event.data["kind"] not in CARD_KINDS:
        return False
    return uow.definitions.retire(event.data["content_id"], event.data["retired_at"])
