"""The challenge nameko service: entrypoints only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from nameko.events import event_handler
from nameko.rpc import rpc

from services.challenge import handlers, orm
from services.challenge.repository import ChallengeUnitOfWork, unit_of_work
from services.challenge.schemas import EventIdSchema, PublishedEventSchema
from shared.consumers import consume
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.errors import NotFound
from shared.events import (
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    QUESTION_PUBLISHED,
)
from shared.health import HealthEndpoints
from shared.schemas import load

EVENT = PublishedEventSchema()


class ChallengeService(HealthEndpoints):
    name = "challenge"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()

    def _uow(self) -> AbstractContextManager[ChallengeUnitOfWork]:
        return unit_of_work(self.db)

    @event_handler(CONTENT_PUBLISHED.source, CONTENT_PUBLISHED.name, requeue_on_error=True)
    def on_content_published(self, message: dict[str, Any]) -> None:
        consume(CONTENT_PUBLISHED, message, self._uow, handlers.record_published_content)

    @event_handler(QUESTION_PUBLISHED.source, QUESTION_PUBLISHED.name, requeue_on_error=True)
    def on_question_published(self, message: dict[str, Any]) -> None:
        consume(QUESTION_PUBLISHED, message, self._uow, handlers.record_published_question)

    @event_handler(CONTENT_RETIRED.source, CONTENT_RETIRED.name, requeue_on_error=True)
    def on_content_retired(self, message: dict[str, Any]) -> None:
        consume(CONTENT_RETIRED, message, self._uow, handlers.record_retired_content)

    @rpc
    def get_event(self, event_id: str) -> dict[str, Any]:
        """A published event's public data (no answer data), retired or not."""
        args = load(EventIdSchema(), {"event_id": event_id})
        with unit_of_work(self.db) as uow:
            found = uow.content.event(args["event_id"])
        if found is None:
            raise NotFound("event_not_found", "there is no such published event")
        return dict(EVENT.dump(found))
