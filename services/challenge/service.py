"""The challenge nameko service: entrypoints only."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any, TypeVar

from nameko.timer import timer

from services.challenge import attempt_handlers, handlers, orm, purge
from services.challenge.domain.claims import Claim, ClaimPolicy
from services.challenge.repository import ChallengeUnitOfWork, unit_of_work
from services.challenge.schemas import (
    AnswerSchema,
    AttemptPageSchema,
    AttemptRefSchema,
    EventIdSchema,
    PublishedEventSchema,
    StartAttemptSchema,
)
from shared.consumers import consume
from shared.db import run_unit_of_work
from shared.dependencies import (
    ClockProvider,
    DatabaseProvider,
    RandomProvider,
    SettingsProvider,
)
from shared.errors import NotFound
from shared.events import (
    ACCOUNT_DELETION_REQUESTED,
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    QUESTION_PUBLISHED,
    REWARD_GRANTED,
)
from shared.health import HealthEndpoints
from shared.quest_schemas import NearbyEventSchema, PointSchema
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import jsonable, load

EVENT = PublishedEventSchema()
NEARBY = NearbyEventSchema(many=True)
ANSWER = AnswerSchema()  # built once: the hot path (schemas are stateless once built)
SWEEP_INTERVAL_SECONDS = 5  # ours: an abandoned attempt completes within seconds of its deadline

T = TypeVar("T")


class ChallengeService(HealthEndpoints):
    name = "challenge"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    random = RandomProvider()
    settings = SettingsProvider()

    def _uow(self) -> AbstractContextManager[ChallengeUnitOfWork]:
        return unit_of_work(self.db)

    def _run(self, work: Callable[[ChallengeUnitOfWork], T]) -> T:
        """``work`` in a unit of work, run again after a deadlock (shared/db.py)."""
        return run_unit_of_work(self._uow, work)

    @reliable_event_handler(CONTENT_PUBLISHED.source, CONTENT_PUBLISHED.name)
    def on_content_published(self, message: dict[str, Any]) -> None:
        consume(CONTENT_PUBLISHED, message, self._uow, handlers.record_published_content)

    @reliable_event_handler(QUESTION_PUBLISHED.source, QUESTION_PUBLISHED.name)
    def on_question_published(self, message: dict[str, Any]) -> None:
        consume(QUESTION_PUBLISHED, message, self._uow, handlers.record_published_question)

    @reliable_event_handler(CONTENT_RETIRED.source, CONTENT_RETIRED.name)
    def on_content_retired(self, message: dict[str, Any]) -> None:
        consume(CONTENT_RETIRED, message, self._uow, handlers.record_retired_content)

    @reliable_event_handler(REWARD_GRANTED.source, REWARD_GRANTED.name)
    def on_reward_granted(self, message: dict[str, Any]) -> None:
        consume(REWARD_GRANTED, message, self._uow, attempt_handlers.record_reward)

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
    def get_event(self, event_id: str) -> dict[str, Any]:
        """A published event's public data (no answer data), retired or not."""
        args = load(EventIdSchema(), {"event_id": event_id})
        found = self._run(lambda uow: uow.content.event(args["event_id"]))
        if found is None:
            raise NotFound("event_not_found", "there is no such published event")
        return dict(EVENT.dump(found))

    # -- attempts ----------------------------------------------------------------------

    def _policy(self) -> ClaimPolicy:
        return ClaimPolicy(
            max_age=timedelta(seconds=self.settings.claim_max_age_seconds),
            max_speed_mps=self.settings.max_speed_kmh * 1000 / 3600,
        )

    @rpc
    def nearby_events(self, lat: float, lon: float) -> list[dict[str, Any]]:
        """Published events open now near a point (no answer data), nearest first."""
        args = load(PointSchema(), {"lat": lat, "lon": lon})
        found = self._run(
            lambda uow: uow.attempts.nearby_events(args["lat"], args["lon"], self.clock.now())
        )
        return list(NEARBY.dump(found))

    @rpc
    def start_attempt(self, **payload: Any) -> dict[str, Any]:
        """Start (``created``) or resume the player's one attempt at an event."""
        args = load(StartAttemptSchema(), payload)
        location = args["location"]
        cmd = attempt_handlers.StartAttempt(
            args["player_id"],
            args["event_id"],
            Claim(
                location["lat"], location["lon"], location["accuracy_m"], location["acquired_at"]
            ),
        )
        outcome = self._run(
            lambda uow: attempt_handlers.start_attempt(
                cmd, uow, self.clock, self.random, self._policy()
            )
        )
        return {"created": outcome.created, "attempt": outcome.view}

    @rpc
    def get_attempt(self, **payload: Any) -> dict[str, Any]:
        args = load(AttemptRefSchema(), payload)
        outcome = self._run(
            lambda uow: attempt_handlers.get_attempt(
                args["player_id"], args["attempt_id"], uow, self.clock
            )
        )
        return outcome.view

    @rpc
    def list_attempts(self, **payload: Any) -> dict[str, Any]:
        """``player_id, cursor?, limit?`` -> ``{"items": [summaries], "next": cursor}``"""
        args = load(AttemptPageSchema(), payload)
        found = self._run(
            lambda uow: attempt_handlers.list_attempts(
                args["player_id"], args["cursor"], args["limit"], uow
            )
        )
        return dict(jsonable(found))

    @rpc
    def answer(self, **payload: Any) -> dict[str, Any]:
        args = load(ANSWER, payload)
        cmd = attempt_handlers.AnswerQuestion(
            args["player_id"], args["attempt_id"], args["index"], args["submission"]
        )
        outcome = self._run(lambda uow: attempt_handlers.answer_question(cmd, uow, self.clock))
        if outcome.refusal is not None:  # raised after the commit: an expiry it resolved stays
            raise outcome.refusal
        return outcome.view

    @timer(interval=SWEEP_INTERVAL_SECONDS)
    def expire_abandoned_attempts(self) -> None:
        self._run(lambda uow: attempt_handlers.expire_due(uow, self.clock))
