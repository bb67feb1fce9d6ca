"""Owned copies, reward grants and starter grants in PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from games.kit.collection import STANDARD_FINISH
from services.cards.orm import card_definitions, owned_cards, reward_grants, starter_grants


@dataclass(frozen=True)
class OwnedCopy:
    id: uuid.UUID
    player_id: uuid.UUID
    definition_id: uuid.UUID
    source_type: str  # one of its game's sources (Quest: "reward" or "starter")
    source_id: uuid.UUID
    acquired_at: datetime
    finish: str = STANDARD_FINISH


@dataclass(frozen=True)
class RewardGrant:
    attempt_id: uuid.UUID
    player_id: uuid.UUID
    event_id: uuid.UUID
    correct_count: int
    rarities: list[str]
    granted_at: datetime


@dataclass(frozen=True)
class StarterGrant:
    player_id: uuid.UUID
    affinity: str
    granted_at: datetime


# A copy as players see it: the copy and the public face of its definition.
_COPY_COLUMNS = (
    owned_cards.c.id,
    owned_cards.c.definition_id,
    owned_cards.c.source_type,
    owned_cards.c.source_id,
    owned_cards.c.finish,
    owned_cards.c.acquired_at,
    card_definitions.c.game,
    card_definitions.c.lineage_id,
    card_definitions.c.name,
    card_definitions.c.kind,
    card_definitions.c.rarity,
    card_definitions.c.attributes,
    card_definitions.c.retired_at,
)


def _copies_query() -> Any:
    return select(*_COPY_COLUMNS).join(
        card_definitions, card_definitions.c.id == owned_cards.c.definition_id
    )


class SqlOwnedCards:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add_all(self, copies: Sequence[OwnedCopy]) -> None:
        if copies:
            self._session.execute(insert(owned_cards), [vars(copy) for copy in copies])

    def of_player(self, player_id: uuid.UUID, game: str) -> list[dict[str, Any]]:
        rows = self._session.execute(
            _copies_query()
            .where(owned_cards.c.player_id == player_id, card_definitions.c.game == game)
            .order_by(card_definitions.c.name, owned_cards.c.acquired_at, owned_cards.c.id)
        ).all()
        return [dict(row._mapping) for row in rows]

    def of_player_by_ids(
        self, player_id: uuid.UUID, copy_ids: Sequence[uuid.UUID]
    ) -> dict[uuid.UUID, dict[str, Any]]:
        """The caller's own copies among ``copy_ids``; anyone else's are simply absent."""
        if not copy_ids:
            return {}
        rows = self._session.execute(
            _copies_query().where(
                owned_cards.c.player_id == player_id, owned_cards.c.id.in_(set(copy_ids))
            )
        ).all()
        return {row.id: dict(row._mapping) for row in rows}

    def granted_by(self, source_type: str, source_id: uuid.UUID, game: str) -> list[dict[str, Any]]:
        """The copies of ``game`` one source granted (another game's grant may share the
        source: TerraKard's starting collection is a ``starter`` grant keyed by the player
        as well)."""
        rows = self._session.execute(
            _copies_query()
            .where(
                owned_cards.c.source_type == source_type,
                owned_cards.c.source_id == source_id,
                card_definitions.c.game == game,
            )
            .order_by(owned_cards.c.acquired_at, card_definitions.c.kind, card_definitions.c.name)
        ).all()
        return [dict(row._mapping) for row in rows]


class SqlRewardGrants:
    def __init__(self, session: Session) -> None:
        self._session = session

    def exists(self, attempt_id: uuid.UUID) -> bool:
        found = self._session.execute(
            select(reward_grants.c.attempt_id).where(reward_grants.c.attempt_id == attempt_id)
        ).first()
        return found is not None

    def add_if_new(self, grant: RewardGrant) -> bool:
        """Insert the roll unless this attempt has one; a concurrent insert waits, then loses."""
        inserted = self._session.execute(
            insert(reward_grants)
            .values(**vars(grant))
            .on_conflict_do_nothing(index_elements=["attempt_id"])
            .returning(reward_grants.c.attempt_id)
        ).first()
        return inserted is not None


class SqlStarterGrants:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, player_id: uuid.UUID) -> StarterGrant | None:
        row = self._session.execute(
            select(starter_grants).where(starter_grants.c.player_id == player_id)
        ).first()
        return StarterGrant(row.player_id, row.affinity, row.granted_at) if row else None

    def add_if_new(self, grant: StarterGrant) -> bool:
        inserted = self._session.execute(
            insert(starter_grants)
            .values(**vars(grant))
            .on_conflict_do_nothing(index_elements=["player_id"])
            .returning(starter_grants.c.player_id)
        ).first()
        return inserted is not None
