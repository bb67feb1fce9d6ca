"""Review at volume: the queue a second Author reads, and approving a batch from it.

The queue is the content in review that the reader did not submit (nothing else is
theirs to approve), oldest submission first: what has waited longest comes first.

A batch approval is one approval per item, each in its own transaction, through the
same transition as a single approval (``handlers.transition_content``): the four-eyes
rule (``own_submission``), the expected version and readiness hold for every item
exactly as they do one at a time, checked on the item's row locked ``FOR UPDATE``, so
two Authors approving the same items at once approve each once, and never their own.

Per item, not all or nothing (ours): a reviewer who approves fifty questions wants
the forty-nine good ones through when one was changed meanwhile, each refusal with
its own code (``stale_version``, ``not_in_review``, ``own_submission``,
``not_ready``, ``content_not_found``), so nothing needs sending twice; each approval
is a fact of its own in the audit, as it would be one at a time; and a transaction
holds one content row at a time, briefly, so two batches over the same items in
different orders wait on each other item by item and never deadlock over the batch.

With an ``Idempotency-Key``, each item's outcome is recorded under the key in the
same transaction as the approval it reports (a refusal, in one of its own), so the
same batch sent again (a timeout, a retry) answers exactly what the first did and
changes nothing, even when the first was cut off half way: the items it did not
reach are tried then. A refusal the service could not decide (503: a conflict that
outlasted the retries) is not recorded, so the retry tries that item again. The same
key for another batch is ``422 idempotency_key_reused``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from services.authoring import handlers
from services.authoring.domain import Content, State
from services.authoring.repository import AuthoringUnitOfWork
from services.authoring.review_records import ReviewRecords
from shared.clock import Clock
from shared.errors import Conflict, DeckyardError, InvalidInput

MAX_BATCH = 100  # ours: items a batch may name (a page of the queue is at most 100)
KEY_DAYS = 7  # ours: how long a batch's answer is kept for its Idempotency-Key

T = TypeVar("T")
# Runs work in a unit of work that commits, again after a deadlock (the service's).
Run = Callable[[Callable[[AuthoringUnitOfWork], T]], T]


@dataclass(frozen=True)
class ReviewItem:
    content_id: uuid.UUID
    expected_version: int


@dataclass(frozen=True)
class ApproveBatch:
    actor: str
    items: tuple[ReviewItem, ...]
    idempotency_key: str | None = None


def review_queue(
    actor: str,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
    uow: AuthoringUnitOfWork,
) -> list[Content]:
    """In review, submitted by someone else, oldest submission first."""
    return uow.content.in_review_for(actor, after, limit)


def approve_batch(
    cmd: ApproveBatch,
    run: Run[Any],
    clock: Clock,
    canonical: CanonicalCards = QUEST_CANONICAL,
) -> list[dict[str, Any]]:
    """Each item's outcome, in the order the batch names them."""
    _check_items(cmd.items)
    if cmd.idempotency_key is not None:
        run(lambda uow: _open_batch(cmd, uow, clock.now()))
    return [_approve_one(cmd, item, run, clock, canonical) for item in cmd.items]


def _check_items(items: tuple[ReviewItem, ...]) -> None:
    if not 1 <= len(items) <= MAX_BATCH:
        raise InvalidInput(
            "invalid_batch", f"a batch names 1 to {MAX_BATCH} items", {"max": MAX_BATCH}
        )
    ids = [item.content_id for item in items]
    if len(set(ids)) != len(ids):
        raise InvalidInput("invalid_batch", "a batch names each item once")


def fingerprint(items: tuple[ReviewItem, ...]) -> str:
    """The batch's items, whatever their order: what one key may stand for."""
    named = sorted([str(item.content_id), item.expected_version] for item in items)
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()


def _open_batch(cmd: ApproveBatch, uow: AuthoringUnitOfWork, now: datetime) -> None:
    assert cmd.idempotency_key is not None
    uow.authors.admit(cmd.actor)
    records = ReviewRecords(uow.events.session)
    records.forget_before(cmd.actor, now - timedelta(days=KEY_DAYS))
    stored = records.open(cmd.actor, cmd.idempotency_key, fingerprint(cmd.items), now)
    if stored != fingerprint(cmd.items):
        raise InvalidInput(
            "idempotency_key_reused", "this Idempotency-Key was used for another batch"
        )


def _approve_one(
    cmd: ApproveBatch,
    item: ReviewItem,
    run: Run[Any],
    clock: Clock,
    canonical: CanonicalCards,
) -> dict[str, Any]:
    key = cmd.idempotency_key

    def approve(uow: AuthoringUnitOfWork) -> dict[str, Any]:
        uow.authors.admit(cmd.actor)  # the gate first, then the row (shared/player_gate.py)
        found = uow.content.get(item.content_id, for_update=True)
        records = ReviewRecords(uow.events.session)
        if key is not None:
            # Read once the row is ours: a concurrent retry of this batch that approved
            # it has committed its outcome by now.
            earlier = records.outcome(cmd.actor, key, item.content_id)
            if earlier is not None:
                return earlier
        if found is not None and found.state is not State.IN_REVIEW:
            raise Conflict(
                "not_in_review",
                f"this content is {found.state.value.replace('_', ' ')}, not in review",
                {"state": found.state.value},
            )
        moved = handlers.transition_content(
            handlers.TransitionContent(
                cmd.actor, item.content_id, State.APPROVED.value, item.expected_version
            ),
            uow,
            clock,
            canonical,
        )
        outcome = approved(moved)
        if key is not None:
            records.record(cmd.actor, key, item.content_id, outcome)
        return outcome

    try:
        result: dict[str, Any] = run(approve)
        return result
    except DeckyardError as refused:
        outcome = refusal(item.content_id, refused)
        if key is None or refused.status >= 500:
            return outcome
        kept: dict[str, Any] = run(
            lambda uow: ReviewRecords(uow.events.session).record(
                cmd.actor, key, item.content_id, outcome
            )
        )
        return kept


def approved(content: Content) -> dict[str, Any]:
    return {
        "id": str(content.id),
        "outcome": "approved",
        "state": content.state.value,
        "version": content.version,
    }


def refusal(content_id: uuid.UUID, refused: DeckyardError) -> dict[str, Any]:
    """A refused item, with the problem a single approval would have answered."""
    problem = {
        **refused.details,
        "status": refused.status,
        "code": refused.code,
        "detail": refused.message,
    }
    return {"id": str(content_id), "outcome": "refused", "problem": problem}
