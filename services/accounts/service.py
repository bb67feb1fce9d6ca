"""The accounts nameko service: entrypoints only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import partial
from typing import Any

from nameko.events import event_handler
from nameko.rpc import rpc

from services.accounts import handlers, orm
from services.accounts.domain import DEFAULT_HISTORY_LIMIT
from services.accounts.repository import (
    ProgressionUnitOfWork,
    player_reader,
    progression_reader,
    progression_unit_of_work,
    unit_of_work,
)
from services.accounts.schemas import (
    PlayerSchema,
    ProgressionQuerySchema,
    ProgressionSchema,
    SubjectSchema,
)
from shared.consumers import consume
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.events import ATTEMPT_COMPLETED, MATCH_FINISHED
from shared.health import HealthEndpoints
from shared.schemas import load

SUBJECT = SubjectSchema()
PLAYER = PlayerSchema()
PROGRESSION_QUERY = ProgressionQuerySchema()
PROGRESSION = ProgressionSchema()


class AccountsService(HealthEndpoints):
    name = "accounts"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()

    def _progression_uow(self) -> AbstractContextManager[ProgressionUnitOfWork]:
        return progression_unit_of_work(self.db, self.clock)

    @event_handler(ATTEMPT_COMPLETED.source, ATTEMPT_COMPLETED.name, requeue_on_error=True)
    def on_attempt_completed(self, message: dict[str, Any]) -> None:
        consume(ATTEMPT_COMPLETED, message, self._progression_uow, handlers.record_attempt_points)

    @event_handler(MATCH_FINISHED.source, MATCH_FINISHED.name, requeue_on_error=True)
    def on_match_finished(self, message: dict[str, Any]) -> None:
        consume(MATCH_FINISHED, message, self._progression_uow, handlers.record_match_points)

    @rpc
    def me(self, sub: str) -> dict[str, Any]:
        """The player for an authenticated subject, registered on first call.

        ``{"sub": "auth0|123"}`` -> ``{"id": "...", "status": "active",
        "registered_at": "...", "registered_now": true, "points": 0}``
        """
        cmd = handlers.GetOrRegisterPlayer(**load(SUBJECT, {"sub": sub}))
        player, registered = handlers.me(
            cmd, partial(player_reader, self.db), partial(unit_of_work, self.db), self.clock
        )
        result: dict[str, Any] = PLAYER.dump(player)
        result["registered_now"] = registered
        return result

    @rpc
    def progression(self, player_id: str, limit: int = DEFAULT_HISTORY_LIMIT) -> dict[str, Any]:
        """A player's progression points and their history, newest first.

        ``{"player_id": "...", "limit": 50}`` -> ``{"player_id": "...", "points": 35,
        "entries": [{"source_type": "match", "source_id": "...", "points": 25,
        "reason": "cpu_victory", "correct_count": null, "occurred_at": "..."},
        {"source_type": "attempt", "source_id": "...", "points": 10,
        "reason": "challenge_answers", "correct_count": 1, "occurred_at": "..."}]}``
        """
        cmd = handlers.GetProgression(
            **load(PROGRESSION_QUERY, {"player_id": player_id, "limit": limit})
        )
        with progression_reader(self.db) as reader:
            progression = handlers.get_progression(cmd, reader)
        result: dict[str, Any] = PROGRESSION.dump(progression)
        return result
