"""The accounts nameko service: entrypoints only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import partial
from typing import Any

from nameko.timer import timer

from services.accounts import deletion_handlers, handlers, orm
from services.accounts.deletion_store import DeletionUnitOfWork, deletion_unit_of_work
from services.accounts.dependencies import DeletionPolicyProvider, Identities
from services.accounts.domain import DEFAULT_HISTORY_LIMIT
from services.accounts.games import LEVELS
from services.accounts.repository import (
    ProgressionUnitOfWork,
    player_reader,
    progression_reader,
    progression_unit_of_work,
    unit_of_work,
)
from services.accounts.schemas import (
    DeletionRequestSchema,
    DeletionViewSchema,
    PlayerSchema,
    ProgressionQuerySchema,
    ProgressionSchema,
    SubjectSchema,
)
from shared.clock_control import ClockControlEndpoints
from shared.consumers import consume
from shared.db import run_unit_of_work
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.errors import InvalidInput
from shared.events import (
    ATTEMPT_COMPLETED,
    MATCH_FINISHED,
    PERSONAL_DATA_PURGED,
    EventContract,
)
from shared.health import HealthEndpoints
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import load

SUBJECT = SubjectSchema()
PLAYER = PlayerSchema()
PROGRESSION_QUERY = ProgressionQuerySchema()
PROGRESSION = ProgressionSchema()
DELETION_REQUEST = DeletionRequestSchema()
DELETION_VIEW = DeletionViewSchema()


DELETION_SWEEP_SECONDS = 10  # ours: a stalled deletion step is retried within seconds of due


class AccountsService(HealthEndpoints, ClockControlEndpoints):
    name = "accounts"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    deletion_policy = DeletionPolicyProvider()
    identities = Identities()

    def _progression_uow(self) -> AbstractContextManager[ProgressionUnitOfWork]:
        return progression_unit_of_work(self.db, self.clock)

    @reliable_event_handler(ATTEMPT_COMPLETED.source, ATTEMPT_COMPLETED.name)
    def on_attempt_completed(self, message: dict[str, Any]) -> None:
        consume(ATTEMPT_COMPLETED, message, self._progression_uow, handlers.record_attempt_points)

    @reliable_event_handler(MATCH_FINISHED.source, MATCH_FINISHED.name)
    def on_match_finished(self, message: dict[str, Any]) -> None:
        consume(MATCH_FINISHED, message, self._progression_uow, handlers.record_match_points)

    @rpc
    def me(self, sub: str) -> dict[str, Any]:
        """The player for an authenticated subject, registered on first call.

        ``{"sub": "auth0|123"}`` -> ``{"id": "...", "status": "active",
        "registered_at": "...", "registered_now": true, "points": 0}``; ``status`` is
        ``locked`` while its deletion runs. A subject deleted less than 30 days ago is
        refused (Forbidden ``account_deleted``), not registered again.
        """
        cmd = handlers.GetOrRegisterPlayer(**load(SUBJECT, {"sub": sub}))
        player, registered = handlers.me(
            cmd,
            partial(player_reader, self.db),
            partial(unit_of_work, self.db, self.deletion_policy.digest),
            self.clock,
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

    @rpc
    def level(self, player_id: str, game: str) -> dict[str, Any]:
        """A player's level in a game with levels, from their progression points.

        ``{"player_id": "...", "game": "terrakard"}`` -> ``{"player_id": "...",
        "game": "terrakard", "points": 35, "level": 1}``
        """
        if game not in LEVELS:
            raise InvalidInput("unknown_game", f"{game!r} has no levels")
        cmd = handlers.GetProgression(
            **load(ProgressionQuerySchema(), {"player_id": player_id, "limit": 1})
        )
        with progression_reader(self.db) as reader:
            points = handlers.get_progression(cmd, reader).points
        return {
            "player_id": player_id,
            "game": game,
            "points": points,
            "level": LEVELS[game](points),
        }

    # -- account deletion (docs/account-deletion.md) ----------------------------------------

    def _deletion_uow(self) -> AbstractContextManager[DeletionUnitOfWork]:
        return deletion_unit_of_work(self.db)

    @rpc
    def request_deletion(
        self, sub: str, auth_time: int | None = None, confirm: str | None = None
    ) -> dict[str, Any]:
        """Lock the account and start deleting it; the same request again changes nothing.

        ``{"sub": "auth0|123", "auth_time": 1764504000, "confirm": "DELETE MY ACCOUNT"}`` ->
        ``{"created": true, "deletion": {"id": "...", "status": "purging_data",
        "requested_at": "...", "completed_at": null, "services": {"cards": "pending", ...},
        "identity": "pending"}}``
        """
        payload = {"sub": sub, "auth_time": auth_time, "confirm": confirm}
        cmd = deletion_handlers.RequestDeletion(**load(DELETION_REQUEST, payload))
        view, created = run_unit_of_work(
            self._deletion_uow,
            lambda uow: deletion_handlers.request_deletion(
                cmd, uow, self.clock, self.deletion_policy
            ),
        )
        return {"created": created, "deletion": DELETION_VIEW.dump(view)}

    @rpc
    def deletion_status(self, sub: str) -> dict[str, Any]:
        """The subject's deletion: under way, or completed (while its digest lives)."""
        args = load(SUBJECT, {"sub": sub})
        view = run_unit_of_work(
            self._deletion_uow,
            lambda uow: deletion_handlers.deletion_status(
                args["sub"], uow, self.clock, self.deletion_policy
            ),
        )
        return dict(DELETION_VIEW.dump(view))

    def _on_data_purged(self, contract: EventContract, message: Any) -> None:
        ready = deletion_handlers.apply_answer(contract, message, self._deletion_uow, self.clock)
        if ready is not None:
            deletion_handlers.complete_deletion(
                ready, self._deletion_uow, self.identities, self.clock, self.deletion_policy
            )

    @reliable_event_handler("authoring", "PersonalDataPurged")
    def on_authoring_data_purged(self, message: dict[str, Any]) -> None:
        self._on_data_purged(PERSONAL_DATA_PURGED["authoring"], message)

    @reliable_event_handler("battle", "PersonalDataPurged")
    def on_battle_data_purged(self, message: dict[str, Any]) -> None:
        self._on_data_purged(PERSONAL_DATA_PURGED["battle"], message)

    @reliable_event_handler("cards", "PersonalDataPurged")
    def on_cards_data_purged(self, message: dict[str, Any]) -> None:
        self._on_data_purged(PERSONAL_DATA_PURGED["cards"], message)

    @reliable_event_handler("challenge", "PersonalDataPurged")
    def on_challenge_data_purged(self, message: dict[str, Any]) -> None:
        self._on_data_purged(PERSONAL_DATA_PURGED["challenge"], message)

    @timer(interval=DELETION_SWEEP_SECONDS)
    def sweep_deletions(self) -> dict[str, int]:
        """Retry stalled deletions (with backoff) and purge expired receipts and digests."""
        report = deletion_handlers.sweep(
            self._deletion_uow, self.identities, self.clock, self.deletion_policy
        )
        return dict(vars(report))
