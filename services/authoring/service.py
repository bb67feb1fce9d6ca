"""The authoring nameko service: entrypoints only.

Callers are trusted to have checked the Author role (the gateway does, on
every request); ``actor`` is the Author's token subject.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from games.quest.canonical import QUEST_CANONICAL
from services.authoring import forms, handlers, kinds, orm, purge, review
from services.authoring.repository import AuthoringUnitOfWork, unit_of_work
from services.authoring.schemas import (
    ApproveBatchSchema,
    AuditEntrySchema,
    ContentIdSchema,
    ContentSchema,
    CreateSchema,
    EditSchema,
    LineageIdsSchema,
    ListSchema,
    ReviewQueueSchema,
    TransitionSchema,
)
from shared import pages
from shared.consumers import consume
from shared.db import run_unit_of_work
from shared.dependencies import CanonicalCardsProvider, ClockProvider, DatabaseProvider
from shared.errors import NotFound
from shared.events import ACCOUNT_DELETION_REQUESTED
from shared.health import HealthEndpoints
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import load

CONTENT = ContentSchema()
AUDIT = AuditEntrySchema(many=True)

T = TypeVar("T")


class AuthoringService(HealthEndpoints):
    name = "authoring"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    canonical = CanonicalCardsProvider(QUEST_CANONICAL)

    def _uow(self) -> AbstractContextManager[AuthoringUnitOfWork]:
        return unit_of_work(self.db)

    def _run(self, work: Callable[[AuthoringUnitOfWork], T]) -> T:
        """``work`` in a unit of work, run again after a deadlock (shared/db.py)."""
        return run_unit_of_work(self._uow, work)

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
    def create(self, **payload: Any) -> dict[str, Any]:
        """``actor, kind, game, body[, replaces]`` -> the new draft (version 1)."""
        cmd = handlers.CreateContent(**load(CreateSchema(), payload))
        return self._run(
            lambda uow: dict(CONTENT.dump(handlers.create_content(cmd, uow, self.clock)))
        )

    @rpc
    def edit(self, **payload: Any) -> dict[str, Any]:
        """``actor, content_id, expected_version, body`` -> the edited draft."""
        cmd = handlers.EditContent(**load(EditSchema(), payload))
        return self._run(
            lambda uow: dict(CONTENT.dump(handlers.edit_content(cmd, uow, self.clock)))
        )

    @rpc
    def transition(self, **payload: Any) -> dict[str, Any]:
        """``actor, content_id, to, expected_version[, reason]`` -> the moved content."""
        cmd = handlers.TransitionContent(**load(TransitionSchema(), payload))
        moved = self._run(
            lambda uow: handlers.transition_content(cmd, uow, self.clock, self.canonical)
        )
        return dict(CONTENT.dump(moved))

    @rpc
    def get(self, content_id: str) -> dict[str, Any]:
        args = load(ContentIdSchema(), {"content_id": content_id})
        return self._run(
            lambda uow: dict(CONTENT.dump(handlers.get_content(args["content_id"], uow)))
        )

    @rpc
    def audit(self, content_id: str) -> list[dict[str, Any]]:
        args = load(ContentIdSchema(), {"content_id": content_id})
        return self._run(lambda uow: list(AUDIT.dump(handlers.audit_of(args["content_id"], uow))))

    @rpc
    def list(self, **filters: Any) -> dict[str, Any]:
        """Content, newest first, a page at a time (``kind``, ``state``, ``cursor``,
        ``limit``): ``{"items", "next"}``, ``next`` the cursor of the following page."""
        args = load(ListSchema(), filters)
        before = pages.position(args["cursor"])
        found = self._run(
            lambda uow: uow.content.list(args["kind"], args["state"], before, args["limit"] + 1)
        )
        return pages.page(found, args["limit"], lambda c: (c.created_at, c.id), CONTENT.dump)

    # -- review at volume and the editor's forms (services/authoring/review.py, forms.py)

    @rpc
    def review_queue(self, **payload: Any) -> dict[str, Any]:
        """``actor[, cursor, limit]`` -> ``{"items", "next"}``: content in review that
        ``actor`` did not submit, oldest submission first."""
        args = load(ReviewQueueSchema(), payload)
        after = pages.position(args["cursor"])
        found = self._run(
            lambda uow: review.review_queue(args["actor"], after, args["limit"] + 1, uow)
        )
        return pages.page(found, args["limit"], lambda c: (c.updated_at, c.id), CONTENT.dump)

    @rpc
    def approve_batch(self, **payload: Any) -> builtins.list[dict[str, Any]]:
        """``actor, items: [{content_id, expected_version}][, idempotency_key]`` -> each
        item's outcome: ``{"id", "outcome": "approved", "version"}`` or ``{"id",
        "outcome": "refused", "problem": {"status", "code", "detail", ...}}``."""
        args = load(ApproveBatchSchema(), payload)
        items = tuple(review.ReviewItem(**item) for item in args["items"])
        cmd = review.ApproveBatch(args["actor"], items, args["idempotency_key"])
        return review.approve_batch(cmd, self._run, self.clock, self.canonical)

    @rpc
    def forms(self) -> builtins.list[dict[str, Any]]:
        """Every kind of every game with its form (``{"game", "kind", "fields"}``),
        read from the schema its body is validated with."""
        return [
            {"game": str(game), "kind": str(kind), "fields": forms.form_of(rules)}
            for game, game_kinds in kinds.GAME_KINDS.items()
            for kind, rules in game_kinds.items()
        ]

    # -- TerraKard's knowledge questions for battle (docs/terrakard.md, "Hosting"): the
    # -- gateway has no route to these; the key reaches battle only, at answer time ------

    @rpc
    def terrakard_questions(self, lineage_ids: Any) -> dict[str, Any]:
        """Card lineage ids -> each one's published knowledge question, without its key:
        ``{lineage_id: {"id", "prompt", "choices"}}``."""
        args = load(LineageIdsSchema(), {"lineage_ids": lineage_ids})
        found = self._run(
            lambda uow: uow.content.questions_about(
                "terrakard", "knowledge_question", args["lineage_ids"]
            )
        )
        return {
            lineage: {
                "id": str(q["id"]),
                "prompt": q["body"]["prompt"],
                "choices": list(q["body"]["choices"]),
            }
            for lineage, q in found.items()
        }

    @rpc
    def terrakard_answer_key(self, question_id: str) -> dict[str, Any]:
        """A published knowledge question's answer key, for battle to mark an answer."""
        args = load(ContentIdSchema(), {"content_id": question_id})
        body = self._run(
            lambda uow: uow.content.published_body(
                args["content_id"], "terrakard", "knowledge_question"
            )
        )
        if body is None or body.get("answer") is None:
            raise NotFound("question_not_found", "there is no such published question")
        return {"question_id": question_id, "answer": int(body["answer"])}
