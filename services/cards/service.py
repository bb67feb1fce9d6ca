"""The cards nameko service: entrypoints only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from services.cards import collection_handlers as collection
from services.cards import handlers, orm, purge, reward_handlers
from services.cards.games import card_games
from services.cards.repository import CardsUnitOfWork, unit_of_work
from services.cards.schemas import (
    CollectionSchema,
    CreateDeckSchema,
    DeckRefSchema,
    DefinitionSchema,
    DeleteDeckSchema,
    EditDeckSchema,
    GameListSchema,
    GameSchema,
    LineageDefinitionSchema,
    MatchDeckSchema,
    NamedDefinitionsSchema,
    PlayerIdSchema,
    StarterChoiceSchema,
)
from shared.consumers import consume
from shared.dependencies import (
    CanonicalCardsProvider,
    ClockProvider,
    DatabaseProvider,
    RandomProvider,
)
from shared.events import (
    ACCOUNT_DELETION_REQUESTED,
    ATTEMPT_COMPLETED,
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    PLAYER_REGISTERED,
)
from shared.health import HealthEndpoints
from shared.quest_card_schemas import CollectionSchema as PlayerCollectionSchema
from shared.quest_card_schemas import DeckSchema, StarterSchema
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import load

DEFINITIONS = DefinitionSchema(many=True)
LINEAGE_DEFINITIONS = LineageDefinitionSchema(many=True)
STARTER = StarterSchema()
PLAYER_COLLECTION = PlayerCollectionSchema()
DECK = DeckSchema()
DECKS = DeckSchema(many=True)
MATCH_DECK = MatchDeckSchema()


class CardsService(HealthEndpoints):
    name = "cards"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    random = RandomProvider()
    canonical = CanonicalCardsProvider()

    def _uow(self) -> AbstractContextManager[CardsUnitOfWork]:
        return unit_of_work(self.db)

    @reliable_event_handler(PLAYER_REGISTERED.source, PLAYER_REGISTERED.name)
    def on_player_registered(self, message: dict[str, Any]) -> None:
        consume(PLAYER_REGISTERED, message, self._uow, handlers.create_collection)

    @reliable_event_handler(CONTENT_PUBLISHED.source, CONTENT_PUBLISHED.name)
    def on_content_published(self, message: dict[str, Any]) -> None:
        consume(CONTENT_PUBLISHED, message, self._uow, handlers.record_published_definition)

    @reliable_event_handler(CONTENT_RETIRED.source, CONTENT_RETIRED.name)
    def on_content_retired(self, message: dict[str, Any]) -> None:
        consume(CONTENT_RETIRED, message, self._uow, handlers.record_retired_definition)

    @reliable_event_handler(ATTEMPT_COMPLETED.source, ATTEMPT_COMPLETED.name)
    def on_attempt_completed(self, message: dict[str, Any]) -> None:
        consume(
            ATTEMPT_COMPLETED,
            message,
            self._uow,
            lambda event, uow: reward_handlers.grant_reward(event, uow, self.random, self.clock),
        )

    @reliable_event_handler(ACCOUNT_DELETION_REQUESTED.source, ACCOUNT_DELETION_REQUESTED.name)
    def on_account_deletion_requested(self, message: dict[str, Any]) -> None:
        """Purge the player's personal data here and answer PersonalDataPurged."""
        consume(
            ACCOUNT_DELETION_REQUESTED,
            message,
            self.db.transaction,
            lambda event, tx: purge.purge_personal_data(event, tx, self.clock),
        )

    @rpc
    def catalogue(self, game: str) -> list[dict[str, Any]]:
        """The active published card definitions of a game (``quest``), by name."""
        args = load(GameSchema(), {"game": game})
        with unit_of_work(self.db) as uow:
            return list(DEFINITIONS.dump(uow.definitions.active(args["game"])))

    @rpc
    def get_collection(self, player_id: str) -> dict[str, Any]:
        """``{"player_id": "..."}`` -> ``{"player_id": "...", "created_at": "..."}``"""
        cmd = handlers.GetCollection(**load(PlayerIdSchema(), {"player_id": player_id}))
        with unit_of_work(self.db) as uow:
            collection = handlers.get_collection(cmd, uow)
        result: dict[str, Any] = CollectionSchema().dump(collection)
        return result

    # -- the player's own cards (player_id always comes from the gateway) ----------------

    @rpc
    def choose_starter(self, player_id: str, affinity: str) -> dict[str, Any]:
        """``affinity="Wit"`` ->
        ``{"created": true, "starter": {"affinity": "Wit", "cards": [...]}}``"""
        args = load(StarterChoiceSchema(), {"player_id": player_id, "affinity": affinity})
        with self._uow() as uow:
            grant, created = collection.choose_starter(
                collection.ChooseStarter(**args),
                uow,
                self.random,
                self.clock,
                card_games(self.canonical),
            )
        return {"created": created, "starter": STARTER.dump(grant)}

    @rpc
    def get_starter(self, player_id: str) -> dict[str, Any]:
        args = load(PlayerIdSchema(), {"player_id": player_id})
        with self._uow() as uow:
            return dict(STARTER.dump(collection.get_starter(args["player_id"], uow)))

    @rpc
    def player_collection(self, player_id: str) -> dict[str, Any]:
        """The player's copies grouped by definition, with counts."""
        args = load(PlayerIdSchema(), {"player_id": player_id})
        with self._uow() as uow:
            return dict(
                PLAYER_COLLECTION.dump(collection.get_collection_view(args["player_id"], uow))
            )

    @rpc
    def list_decks(self, player_id: str, game: str = "quest") -> list[dict[str, Any]]:
        args = load(GameListSchema(), {"player_id": player_id, "game": game})
        with self._uow() as uow:
            return list(DECKS.dump(collection.list_decks(args["player_id"], uow, args["game"])))

    @rpc
    def get_deck(self, player_id: str, deck_id: str) -> dict[str, Any]:
        args = load(DeckRefSchema(), {"player_id": player_id, "deck_id": deck_id})
        with self._uow() as uow:
            return dict(DECK.dump(collection.get_deck(args["player_id"], args["deck_id"], uow)))

    @rpc
    def deck_for_match(self, player_id: str, deck_id: str) -> dict[str, Any]:
        """A legal saved deck with each card's full definition (for the battle snapshot)."""
        args = load(DeckRefSchema(), {"player_id": player_id, "deck_id": deck_id})
        with self._uow() as uow:
            found = collection.deck_for_match(args["player_id"], args["deck_id"], uow)
        return dict(MATCH_DECK.dump(found))

    @rpc
    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]:
        """The active version of each lineage founded under one of ``names`` (the configured
        CPU deck, ``games.quest.canonical``), full definition and ``lineage_name`` included."""
        args = load(NamedDefinitionsSchema(), {"game": game, "kind": kind, "names": names})
        with self._uow() as uow:
            found = uow.definitions.active_in_lineages(args["game"], args["kind"], args["names"])
        return list(LINEAGE_DEFINITIONS.dump(found))

    @rpc
    def create_deck(self, **payload: Any) -> dict[str, Any]:
        """``name="Morning walk", cards=[five owned copy ids]`` -> the deck at version 1"""
        cmd = collection.SaveDeck(**load(CreateDeckSchema(), payload))
        with self._uow() as uow:
            return dict(DECK.dump(collection.create_deck(cmd, uow, self.clock)))

    @rpc
    def edit_deck(self, **payload: Any) -> dict[str, Any]:
        """Rename (``name``) and/or replace the cards (``cards``) at ``expected_version``."""
        cmd = collection.EditDeck(**load(EditDeckSchema(), payload))
        with self._uow() as uow:
            return dict(DECK.dump(collection.edit_deck(cmd, uow, self.clock)))

    @rpc
    def delete_deck(self, **payload: Any) -> None:
        args = load(DeleteDeckSchema(), payload)
        with self._uow() as uow:
            collection.delete_deck(
                args["player_id"], args["deck_id"], args["expected_version"], uow
            )
