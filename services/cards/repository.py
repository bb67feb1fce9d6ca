"""Collections in PostgreSQL, and the cards unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import card_definitions, collections
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


class DefinitionRepository(Protocol):
    def add_published(self, definition: dict[str, Any]) -> bool: ...

    def retire(self, definition_id: uuid.UUID, at: datetime) -> bool: ...

    def active(self, game: str) -> list[dict[str, Any]]: ...


@dataclass
class CardsUnitOfWork:
    collections: CollectionRepository
    inbox: Inbox
    definitions: DefinitionRepository


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


class SqlDefinitionRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add_published(self, definition: dict[str, Any]) -> bool:
        """Insert a published definition; a known id is left as it is (immutable)."""
        inserted = self._session.execute(
            insert(card_definitions)
            .values(**definition)
            .on_conflict_do_nothing(index_elements=["id"])
            .returning(card_definitions.c.id)
        ).first()
        return inserted is not None

    def retire(self, definition_id: uuid.UUID, at: datetime) -> bool:
        retired = self._session.execute(
            update(card_definitions)
            .where(card_definitions.c.id == definition_id, card_definitions.c.retired_at.is_(None))
            .values(retired_at=at)
            .returning(card_definitions.c.id)
        ).first()
        return retired is not None

    def active(self, game: str) -> list[dict[str, Any]]:
        rows = self._session.execute(
            select(card_definitions)
            .where(card_definitions.c.game == game, card_definitions.c.retired_at.is_(None))
            .order_by(card_definitions.c.name)
        ).all()
        return [dict(row._mapping) for row in rows]


@contextmanager
def unit_of_work(db: Database) -> Iterator[CardsUnitOfWork]:
    with db.transaction() as tx:
        yield CardsUnitOfWork(
            collections=SqlCollectionRepository(tx.session),
            inbox=tx,
            definitions=SqlDefinitionRepository(tx.session),
        )
