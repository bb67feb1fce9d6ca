"""Collections in PostgreSQL, and the cards unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from games.kit.collection import CardPool
from services.cards.crafting_store import SqlCrafting
from services.cards.deck_store import SqlDecks
from services.cards.fairness_store import SqlFairness
from services.cards.ledger_store import SqlLedger
from services.cards.orm import card_definitions, collections
from services.cards.ownership_store import SqlOwnedCards, SqlRewardGrants, SqlStarterGrants
from services.cards.pack_store import SqlPacks
from services.cards.purge import player_gate
from services.cards.terrakard_store import SqlTerraKard
from shared.db import Database
from shared.events import Event
from shared.player_gate import PlayerGate


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

    def pool(self, game: str, pool: CardPool) -> dict[str, list[dict[str, Any]]]: ...

    def snapshots(self, definition_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]: ...

    def pool_by_name(self, game: str, pool: CardPool) -> list[dict[str, Any]]: ...

    def active_in_lineages(
        self, game: str, kind: str, founding_names: Sequence[str]
    ) -> list[dict[str, Any]]: ...


class EventSink(Protocol):
    def add_event(self, event: Event) -> None: ...


@dataclass
class CardsUnitOfWork:
    collections: CollectionRepository
    inbox: Inbox
    definitions: DefinitionRepository
    events: EventSink
    owned: SqlOwnedCards
    rewards: SqlRewardGrants
    starters: SqlStarterGrants
    decks: SqlDecks
    players: PlayerGate  # passed first by every write for a player
    fairness: SqlFairness  # provably fair seeds and rolls
    ledger: SqlLedger  # currencies
    packs: SqlPacks  # unopened packs and openings
    terrakard: SqlTerraKard  # TerraKard's plans and players
    crafting: SqlCrafting  # shreds, crafts, capped finishes


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
        """Insert a published definition; a known id is left as it is (immutable).

        Exactly one version of a lineage is active: the newest published one. A newer
        version retires the active one (its replacement supersedes it); one that
        arrives late, after a newer version, is kept as already superseded. The advisory
        lock orders two versions of one lineage arriving at once.
        """
        self._session.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:lineage))"),
            {"lineage": f"lineage:{definition['lineage_id']}"},
        )
        definitions = card_definitions.c
        newer = self._session.execute(
            select(func.min(definitions.published_at)).where(
                definitions.lineage_id == definition["lineage_id"],
                definitions.id != definition["id"],
                definitions.published_at > definition["published_at"],
            )
        ).scalar()
        if newer is not None:
            definition = {**definition, "retired_at": newer}
        else:
            self._session.execute(
                update(card_definitions)
                .where(
                    definitions.lineage_id == definition["lineage_id"],
                    definitions.id != definition["id"],
                    definitions.retired_at.is_(None),
                )
                .values(retired_at=definition["published_at"])
            )
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

    def snapshots(self, definition_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]:
        """Published bodies by id, retired or not (owned copies outlive retirement)."""
        rows = self._session.execute(
            select(card_definitions.c.id, card_definitions.c.snapshot).where(
                card_definitions.c.id.in_(set(definition_ids))
            )
        ).all()
        return {row.id: row.snapshot for row in rows}

    def _available(self, game: str) -> Any:
        return select(card_definitions).where(
            card_definitions.c.game == game, card_definitions.c.retired_at.is_(None)
        )

    def _in_pool(self, game: str, pool: CardPool) -> Any:
        definitions = card_definitions.c
        query = self._available(game).where(definitions.kind.in_(sorted(pool.kinds)))
        if pool.rarity is not None:
            query = query.where(definitions.rarity == pool.rarity)
        if pool.attributes:
            # JSONB containment: every attribute the game's pool names, with its value.
            query = query.where(definitions.attributes.contains(dict(pool.attributes)))
        return query

    def pool(self, game: str, pool: CardPool) -> dict[str, list[dict[str, Any]]]:
        """A game's active definitions in ``pool`` (its reward pool), by rarity.

        Ordered by id so that a seeded roll picks the same definition every time. Only
        the columns a grant needs: reading every snapshot cost a quarter of the cards
        process's CPU per reward (docs/performance.md, "Reward pipeline").
        """
        definitions = card_definitions.c
        rows = self._session.execute(
            self._in_pool(game, pool)
            .with_only_columns(
                definitions.id,
                definitions.lineage_id,
                definitions.name,
                definitions.kind,
                definitions.rarity,
                definitions.attributes,
            )
            .order_by(definitions.id)
        ).all()
        found: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            found.setdefault(row.rarity, []).append(dict(row._mapping))
        return found

    def pool_by_name(self, game: str, pool: CardPool) -> list[dict[str, Any]]:
        """A game's active definitions in ``pool`` (a starter choice's), by name."""
        rows = self._session.execute(
            self._in_pool(game, pool).order_by(card_definitions.c.name, card_definitions.c.id)
        ).all()
        return [dict(row._mapping) for row in rows]

    def active_in_lineages(
        self, game: str, kind: str, founding_names: Sequence[str]
    ) -> list[dict[str, Any]]:
        """The active version of each lineage founded under one of ``founding_names``
        (``games.quest.canonical``), with that name as ``lineage_name``.

        A lineage's founding version is its first published one; names compare as
        authoring keeps them unique (it reserves a founding name to its lineage).
        """
        definitions = card_definitions.c
        founders = (
            select(definitions.lineage_id, definitions.name)
            .where(definitions.game == game, definitions.kind == kind)
            .distinct(definitions.lineage_id)
            .order_by(definitions.lineage_id, definitions.published_at, definitions.id)
            .subquery()
        )
        wanted = [name.strip().lower() for name in founding_names]
        rows = self._session.execute(
            self._available(game)
            .add_columns(founders.c.name.label("lineage_name"))
            .join(founders, founders.c.lineage_id == definitions.lineage_id)
            .where(
                definitions.kind == kind,
                func.lower(func.btrim(founders.c.name)).in_(wanted),
            )
            .order_by(founders.c.name, definitions.id)
        ).all()
        return [dict(row._mapping) for row in rows]


@contextmanager
def unit_of_work(db: Database) -> Iterator[CardsUnitOfWork]:
    with db.transaction() as tx:
        yield CardsUnitOfWork(
            collections=SqlCollectionRepository(tx.session),
            inbox=tx,
            definitions=SqlDefinitionRepository(tx.session),
            events=tx,
            owned=SqlOwnedCards(tx.session),
            rewards=SqlRewardGrants(tx.session),
            starters=SqlStarterGrants(tx.session),
            decks=SqlDecks(tx.session),
            players=player_gate(tx.session),
            fairness=SqlFairness(tx.session),
            ledger=SqlLedger(tx.session),
            packs=SqlPacks(tx.session),
            terrakard=SqlTerraKard(tx.session),
            crafting=SqlCrafting(tx.session),
        )
