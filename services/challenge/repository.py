"""The published-content read model in PostgreSQL/PostGIS, and its unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Table, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.challenge.attempt_store import SqlAttempts
from services.challenge.orm import campaigns, challenges, events, questions
from services.challenge.purge import player_gate
from shared.content import Kind
from shared.db import Database, UnitOfWork
from shared.player_gate import PlayerGate

TABLE_OF_KIND: dict[str, Table] = {
    Kind.QUESTION: questions,
    Kind.ORDERING_QUESTION: questions,
    Kind.CHALLENGE: challenges,
    Kind.EVENT: events,
    Kind.CAMPAIGN: campaigns,
}


class Inbox(Protocol):
    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool: ...


class SqlPublishedContent:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, kind: str, row: dict[str, Any]) -> bool:
        """Insert published content once; a known id stays as it is (immutable)."""
        table = TABLE_OF_KIND[kind]
        inserted = self._session.execute(
            insert(table)
            .values(**row)
            .on_conflict_do_nothing(index_elements=["id"])
            .returning(table.c.id)
        ).first()
        return inserted is not None

    def retire(self, kind: str, content_id: uuid.UUID, at: datetime) -> bool:
        table = TABLE_OF_KIND[kind]
        retired = self._session.execute(
            update(table)
            .where(table.c.id == content_id, table.c.retired_at.is_(None))
            .values(retired_at=at)
            .returning(table.c.id)
        ).first()
        return retired is not None

    def event(self, event_id: uuid.UUID) -> dict[str, Any] | None:
        row = self._session.execute(
            select(
                events,
                func.ST_Y(func.ST_GeomFromWKB(func.ST_AsBinary(events.c.geog))).label("lat"),
                func.ST_X(func.ST_GeomFromWKB(func.ST_AsBinary(events.c.geog))).label("lon"),
            ).where(events.c.id == event_id)
        ).first()
        if row is None:
            return None
        found = dict(row._mapping)
        found.pop("geog")
        return found


@dataclass
class ChallengeUnitOfWork:
    content: SqlPublishedContent
    inbox: Inbox
    attempts: SqlAttempts
    events: UnitOfWork
    players: PlayerGate  # passed first by every write for a player


@contextmanager
def unit_of_work(db: Database) -> Iterator[ChallengeUnitOfWork]:
    with db.transaction() as tx:
        yield ChallengeUnitOfWork(
            SqlPublishedContent(tx.session),
            tx,
            SqlAttempts(tx.session),
            tx,
            player_gate(tx.session),
        )
