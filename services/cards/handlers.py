"""Cards use cases: plain functions over a unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.refusal import Refusal
from services.cards.economy import Economy
from services.cards.games import CARD_GAMES, CardGames
from services.cards.pack_handlers import GrantPacks, grant_packs
from services.cards.repository import CardsUnitOfWork, Collection
from shared.clock import Clock
from shared.errors import NotFound
from shared.events import Event, UnprocessableMessage

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


STARTING_SOURCE = "starter"  # the source_type of a new account's starting packs


def welcome_player(
    event: Event,
    uow: CardsUnitOfWork,
    economy: Economy,
    clock: Clock,
    games: CardGames = CARD_GAMES,
) -> bool:
    """A newly registered player: an empty collection and every game's starting packs
    (``CollectionRules.starting_packs``), in one transaction, once per event; each grant
    is keyed by game and kind, so the player gets it once whatever happens."""
    if not create_collection(event, uow):
        return False
    player_id = event.data["player_id"]
    for rules in games.all():
        for kind, quantity in rules.starting_packs:
            grant_packs(
                GrantPacks(
                    player_id=player_id,
                    game=rules.game,
                    kind=kind,
                    quantity=quantity,
                    source_type=STARTING_SOURCE,
                    source_id=str(player_id),
                    idempotency_key=f"starting:{rules.game}:{kind}",
                ),
                uow,
                economy,
                clock,
            )
    return True


def get_collection(cmd: GetCollection, uow: CardsUnitOfWork) -> Collection:
    collection = uow.collections.get(cmd.player_id)
    if collection is None:
        raise NotFound("collection_not_found", "this player has no collection yet")
    return collection


def _is_card(data: Mapping[str, Any], games: CardGames) -> bool:
    game = data["game"]
    return game in games and data["kind"] in games.rules(str(game)).card_kinds


def record_published_definition(
    event: Event, uow: CardsUnitOfWork, games: CardGames = CARD_GAMES
) -> bool:
    """Keep a published card definition of a game we keep cards of (other content is
    not ours), with its game attributes as the game's package reads them."""
    if not uow.inbox.first_delivery(event.event_id, CONTENT_PUBLISHED_CONSUMER):
        return False
    data = event.data
    if not _is_card(data, games):
        return False
    snapshot = data["snapshot"]
    try:
        attributes = games.rules(data["game"]).card_attributes(data["kind"], snapshot)
    except Refusal as exc:
        # Authoring validated it with the same game's rules: no retry can make it fit.
        raise UnprocessableMessage(f"definition {data['content_id']}: {exc}") from exc
    uow.definitions.add_published(
        {
            "id": data["content_id"],
            "lineage_id": data["lineage_id"],
            "game": data["game"],
            "kind": data["kind"],
            "name": snapshot["name"],
            "rarity": snapshot["rarity"],
            "attributes": attributes,
            "version": data["version"],
            "snapshot": snapshot,
            "published_at": data["published_at"],
        }
    )
    return True


def record_retired_definition(
    event: Event, uow: CardsUnitOfWork, games: CardGames = CARD_GAMES
) -> bool:
    """A retired definition is no longer offered; owned copies of it stay."""
    if not uow.inbox.first_delivery(event.event_id, CONTENT_RETIRED_CONSUMER):
        return False
    if not _is_card(event.data, games):
        return False
    return uow.definitions.retire(event.data["content_id"], event.data["retired_at"])
