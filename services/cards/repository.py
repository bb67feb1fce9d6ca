"""Collections in PostgreSQL, and the cards unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import collections
from shared.db import Database


@dataclass(frozen=True)
class Collection:
    player_id: uuid.UUID
    created_at: datetime


class CollectionRepository(Protocol):
    def get(self, player_id: uuid.UUID) -> Collection | None: ...

    def create_if_missing(self, collection: Collection) -> bool: ...


class Inbox(Protocol):
    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool: ...


@dataclass
class CardsUnitOfWork:
    collections: CollectionRepository
    inbox: Inbox


class SqlCollectionRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, player_id: uuid.UUID) -> Collection | None:
        row = self._session.execute(
            select(collections).where(collections.c.player_id == player_id)
        ).first()
        return Collection(row.player_id, row.created_at) if row else None

    def create_if_missing(self, collection: Collection) -> bool:
        inserted = self._session.execute(
            insert(collections)
            .values(player_id=collection.player_id, created_at=collection.created_at)
            .on_conflict_do_nothing(index_elements=["player_id"])
            .returning(collections.c.player_id)
        ).first()
        return inserted is not None


@contextmanager
def unit_of_work(db: Database) -> Iterator[CardsUnitOfWork]:
    with db.transaction() as tx:
        yield CardsUnitOfWork(collections=SqlCollectionRepository(tx.session), inbox=tx)
