"""Cards use cases: plain functions over a unit of work."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from services.cards.repository import CardsUnitOfWork, Collection
from shared.errors import NotFound
from shared.events import Event

PLAYER_REGISTERED_CONSUMER = "cards.create_collection"


@dataclass(frozen=True)
class GetCollection:
    player_id: uuid.UUID


def create_collection(event: Event, uow: CardsUnitOfWork) -> bool:
    """Give a newly registered player an empty collection, once per event.

    Returns False when this event was already applied (a redelivery).
    """
    if not uow.inbox.first_delivery(event.event_id, PLAYER_REGISTERED_CONSUMER):
        return False
    uow.collections.create_if_missing(
        Collection(player_id=event.data["player_id"], created_at=event.data["registered_at"])
    )
    return True


def get_collection(cmd: GetCollection, uow: CardsUnitOfWork) -> Collection:
    collection = uow.collections.get(cmd.player_id)
    if collection is None:
        raise NotFound("collection_not_found", "this player has no collection yet")
    return collection
