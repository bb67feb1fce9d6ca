"""What a batch approval sent with an Idempotency-Key answered, item by item, in
PostgreSQL (services/authoring/review.py says why and when)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.authoring.orm import review_batch_outcomes, review_batches


class ReviewRecords:
    def __init__(self, session: Session) -> None:
        self._session = session

    def open(self, actor: str, key: str, fingerprint: str, now: datetime) -> str:
        """The fingerprint the key stands for: this one, unless it was used before."""
        self._session.execute(
            insert(review_batches)
            .values(actor=actor, idempotency_key=key, fingerprint=fingerprint, created_at=now)
            .on_conflict_do_nothing()
        )
        stored: str = self._session.execute(
            select(review_batches.c.fingerprint).where(
                review_batches.c.actor == actor, review_batches.c.idempotency_key == key
            )
        ).scalar_one()
        return stored

    def forget_before(self, actor: str, before: datetime) -> None:
        """The actor's keys older than ``before``, and their outcomes (cascade)."""
        self._session.execute(
            delete(review_batches).where(
                review_batches.c.actor == actor, review_batches.c.created_at < before
            )
        )

    def outcome(self, actor: str, key: str, content_id: uuid.UUID) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._session.execute(
            select(review_batch_outcomes.c.outcome).where(
                review_batch_outcomes.c.actor == actor,
                review_batch_outcomes.c.idempotency_key == key,
                review_batch_outcomes.c.content_id == content_id,
            )
        ).scalar()
        return found

    def record(
        self, actor: str, key: str, content_id: uuid.UUID, outcome: dict[str, Any]
    ) -> dict[str, Any]:
        """The item's outcome under the key: ``outcome``, or the one recorded first."""
        self._session.execute(
            insert(review_batch_outcomes)
            .values(actor=actor, idempotency_key=key, content_id=content_id, outcome=outcome)
            .on_conflict_do_nothing()
        )
        kept = self.outcome(actor, key, content_id)
        assert kept is not None  # inserted now, or by the transaction that went first
        return kept


def forget_author(session: Session, actor: str) -> None:
    """A deleted author's batch records (account deletion): answers kept for retries,
    nothing history needs."""
    session.execute(delete(review_batches).where(review_batches.c.actor == actor))
