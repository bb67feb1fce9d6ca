"""Account deletion in PostgreSQL: sagas, answers, receipts, digests; the deletion unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from services.accounts.deletion import DeletedIdentity, DeletionSaga, Receipt
from services.accounts.domain import Player, PlayerStatus
from services.accounts.orm import (
    deleted_identities,
    deletion_answers,
    deletion_receipts,
    deletion_sagas,
    players,
    plumbing,
)
from services.accounts.repository import EventSink, Inbox, player_from_row
from shared.db import Database
from shared.outbox import forget_player_events


class DeletionStore(Protocol):
    def player(self, sub: str, for_update: bool = False) -> Player | None:
        """The subject's player (None if unknown); ``for_update`` holds off concurrent requests."""
        ...

    def saga_of_player(self, player_id: uuid.UUID) -> DeletionSaga | None: ...

    def saga(self, deletion_id: uuid.UUID, for_update: bool = False) -> DeletionSaga | None: ...

    def due(self, now: datetime, limit: int) -> list[DeletionSaga]:
        """Sagas whose next step is due, locked; ones another worker holds are skipped."""
        ...

    def start(self, saga: DeletionSaga) -> None:
        """Lock the player and persist the saga with the answers it awaits."""
        ...

    def save(self, saga: DeletionSaga) -> None: ...

    def finish(self, saga: DeletionSaga, receipt: Receipt, deleted: DeletedIdentity) -> None:
        """Delete the player (and everything of theirs here), keep only what is kept."""
        ...

    def live_receipt(self, digest: str, now: datetime) -> Receipt | None: ...

    def purge_expired(self, now: datetime) -> tuple[int, int]:
        """Delete expired receipts and digests; how many of each."""
        ...


@dataclass
class DeletionUnitOfWork:
    store: DeletionStore
    events: EventSink
    inbox: Inbox


class SqlDeletionStore:
    def __init__(self, session: Session) -> None:
        self._session = session

    def player(self, sub: str, for_update: bool = False) -> Player | None:
        query = select(players).where(players.c.auth0_sub == sub)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return player_from_row(row) if row else None

    def saga_of_player(self, player_id: uuid.UUID) -> DeletionSaga | None:
        row = self._session.execute(
            select(deletion_sagas).where(deletion_sagas.c.player_id == player_id)
        ).first()
        return self._saga(row) if row else None

    def saga(self, deletion_id: uuid.UUID, for_update: bool = False) -> DeletionSaga | None:
        query = select(deletion_sagas).where(deletion_sagas.c.id == deletion_id)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return self._saga(row) if row else None

    def due(self, now: datetime, limit: int) -> list[DeletionSaga]:
        rows = self._session.execute(
            select(deletion_sagas)
            .where(deletion_sagas.c.next_attempt_at <= now)
            .order_by(deletion_sagas.c.next_attempt_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        return [self._saga(row) for row in rows]

    def _saga(self, row: Any) -> DeletionSaga:
        answers = self._session.execute(
            select(deletion_answers.c.service, deletion_answers.c.answered_at).where(
                deletion_answers.c.deletion_id == row.id
            )
        ).all()
        return DeletionSaga(
            id=row.id,
            player_id=row.player_id,
            auth0_sub=row.auth0_sub,
            requested_at=row.requested_at,
            answered={a.service: a.answered_at for a in answers},
            identity_deleted_at=row.identity_deleted_at,
            attempts=row.attempts,
            next_attempt_at=row.next_attempt_at,
            last_error=row.last_error,
        )

    def start(self, saga: DeletionSaga) -> None:
        self._session.execute(
            update(players)
            .where(players.c.id == saga.player_id)
            .values(status=PlayerStatus.LOCKED.value)
        )
        self._session.execute(insert(deletion_sagas).values(**self._columns(saga)))
        self._session.execute(
            insert(deletion_answers),
            [
                {"deletion_id": saga.id, "service": service, "answered_at": at}
                for service, at in saga.answered.items()
            ],
        )

    def save(self, saga: DeletionSaga) -> None:
        columns = self._columns(saga)
        del columns["id"]
        self._session.execute(
            update(deletion_sagas).where(deletion_sagas.c.id == saga.id).values(**columns)
        )
        for service, at in saga.answered.items():
            if at is not None:
                self._session.execute(
                    update(deletion_answers)
                    .where(
                        deletion_answers.c.deletion_id == saga.id,
                        deletion_answers.c.service == service,
                        deletion_answers.c.answered_at.is_(None),
                    )
                    .values(answered_at=at)
                )

    @staticmethod
    def _columns(saga: DeletionSaga) -> dict[str, Any]:
        return {
            "id": saga.id,
            "player_id": saga.player_id,
            "auth0_sub": saga.auth0_sub,
            "requested_at": saga.requested_at,
            "identity_deleted_at": saga.identity_deleted_at,
            "attempts": saga.attempts,
            "next_attempt_at": saga.next_attempt_at,
            "last_error": saga.last_error,
        }

    def finish(self, saga: DeletionSaga, receipt: Receipt, deleted: DeletedIdentity) -> None:
        # Events about the player still kept here (PlayerRegistered, the deletion
        # requests themselves), published or not: none is owed to anyone now.
        forget_player_events(self._session, plumbing.outbox, saga.player_id)
        self._session.execute(delete(deletion_sagas).where(deletion_sagas.c.id == saga.id))
        # Progression entries go with the player (ON DELETE CASCADE).
        self._session.execute(delete(players).where(players.c.id == saga.player_id))
        self._session.execute(
            insert(deletion_receipts).values(
                id=receipt.id,
                requested_at=receipt.requested_at,
                completed_at=receipt.completed_at,
                expires_at=receipt.expires_at,
            )
        )
        # A subject deleted twice within 30 days (a new account, deleted again) keeps
        # only the newest digest.
        self._session.execute(
            delete(deleted_identities).where(deleted_identities.c.digest == deleted.digest)
        )
        self._session.execute(
            insert(deleted_identities).values(
                digest=deleted.digest,
                receipt_id=deleted.receipt_id,
                deleted_at=deleted.deleted_at,
                expires_at=deleted.expires_at,
            )
        )

    def live_receipt(self, digest: str, now: datetime) -> Receipt | None:
        receipts = deletion_receipts.c
        row = self._session.execute(
            select(receipts.id, receipts.requested_at, receipts.completed_at, receipts.expires_at)
            .join_from(
                deleted_identities,
                deletion_receipts,
                deleted_identities.c.receipt_id == receipts.id,
            )
            .where(deleted_identities.c.digest == digest, deleted_identities.c.expires_at > now)
        ).first()
        if row is None:
            return None
        return Receipt(row.id, row.requested_at, row.completed_at, row.expires_at)

    def purge_expired(self, now: datetime) -> tuple[int, int]:
        digests = self._session.execute(
            delete(deleted_identities)
            .where(deleted_identities.c.expires_at <= now)
            .returning(deleted_identities.c.digest)
        ).all()
        # A receipt outlives its digest (12 months > 30 days); the cascade takes any
        # digest left pointing at an expired receipt.
        receipts = self._session.execute(
            delete(deletion_receipts)
            .where(deletion_receipts.c.expires_at <= now)
            .returning(deletion_receipts.c.id)
        ).all()
        return len(receipts), len(digests)


@contextmanager
def deletion_unit_of_work(db: Database) -> Iterator[DeletionUnitOfWork]:
    with db.transaction() as tx:
        yield DeletionUnitOfWork(store=SqlDeletionStore(tx.session), events=tx, inbox=tx)
