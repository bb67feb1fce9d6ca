"""The cards nameko service: entrypoints only."""

from __future__ import annotations

from typing import Any

from nameko.events import event_handler
from nameko.rpc import rpc

from services.cards import handlers, orm
from services.cards.repository import unit_of_work
from services.cards.schemas import CollectionSchema, PlayerIdSchema
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.events import PLAYER_REGISTERED, read_event_or_drop
from shared.health import HealthEndpoints
from shared.schemas import load


class CardsService(HealthEndpoints):
    name = "cards"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()

    @event_handler(PLAYER_REGISTERED.source, PLAYER_REGISTERED.name, requeue_on_error=True)
    def on_player_registered(self, message: dict[str, Any]) -> None:
        event = read_event_or_drop(PLAYER_REGISTERED, message)
        if event is None:
            return
        with unit_of_work(self.db) as uow:
            handlers.create_collection(event, uow)

    @rpc
    def get_collection(self, player_id: str) -> dict[str, Any]:
        """``{"player_id": "..."}`` -> ``{"player_id": "...", "created_at": "..."}``"""
        cmd = handlers.GetCollection(**load(PlayerIdSchema(), {"player_id": player_id}))
        with unit_of_work(self.db) as uow:
            collection = handlers.get_collection(cmd, uow)
        result: dict[str, Any] = CollectionSchema().dump(collection)
        return result
