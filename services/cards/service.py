"""The cards nameko service: entrypoints only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from nameko.events import event_handler
from nameko.rpc import rpc

from services.cards import handlers, orm
from services.cards.repository import CardsUnitOfWork, unit_of_work
from services.cards.schemas import (
    CollectionSchema,
    DefinitionSchema,
    GameSchema,
    PlayerIdSchema,
)
from shared.consumers import consume
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.events import (
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    PLAYER_REGISTERED,
)
from shared.health import HealthEndpoints
from shared.schemas import load

DEFINITIONS = DefinitionSchema(many=True)


class CardsService(HealthEndpoints):
    name = "cards"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()

    def _uow(self) -> AbstractContextManager[CardsUnitOfWork]:
        return unit_of_work(self.db)

    @event_handler(PLAYER_REGISTERED.source, PLAYER_REGISTERED.name, requeue_on_error=True)
    def on_player_registered(self, message: dict[str, Any]) -> None:
        consume(PLAYER_REGISTERED, message, self._uow, handlers.create_collection)

    @event_handler(CONTENT_PUBLISHED.source, CONTENT_PUBLISHED.name, requeue_on_error=True)
    def on_content_published(self, message: dict[str, Any]) -> None:
        consume(CONTENT_PUBLISHED, message, self._uow, handlers.record_published_definition)

    @event_handler(CONTENT_RETIRED.source, CONTENT_RETIRED.name, requeue_on_error=True)
    def on_content_retired(self, message: dict[str, Any]) -> None:
        consume(CONTENT_RETIRED, message, self._uow, handlers.record_retired_definition)

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
