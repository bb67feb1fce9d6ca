"""Provably fair seeds and rolls in PostgreSQL (docs/fairness.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import fair_rolls, fair_seeds


@dataclass(frozen=True)
class Seed:
    id: uuid.UUID
    player_id: uuid.UUID
    server_seed: str  # 64 hex digits: secret while the seed is active
    server_seed_hash: str
    client_seed: str
    next_nonce: int
    created_at: datetime
    revealed_at: datetime | None = None


def _seed(row: Any) -> Seed:
    return Seed(**{name: getattr(row, name) for name in Seed.__dataclass_fields__})


class SqlFairness:
    def __init__(self, session: Session) -> None:
        self._session = session

    def active(self, player_id: uuid.UUID) -> Seed | None:
        row = self._session.execute(
            select(fair_seeds).where(
                fair_seeds.c.player_id == player_id, fair_seeds.c.revealed_at.is_(None)
            )
        ).first()
        return _seed(row) if row else None

    def add_active(self, seed: Seed) -> None:
        """Insert a player's active seed (the caller holds the player's gate)."""
        self._session.execute(insert(fair_seeds).values(**vars(seed)))

    def take_nonce(self, seed_id: uuid.UUID) -> int:
        """The next nonce of the seed, counted once (the row stays locked to commit)."""
        nonce = self._session.execute(
            update(fair_seeds)
            .where(fair_seeds.c.id == seed_id, fair_seeds.c.revealed_at.is_(None))
            .values(next_nonce=fair_seeds.c.next_nonce + 1)
            .returning(fair_seeds.c.next_nonce)
        ).scalar_one()
        return int(nonce) - 1

    def set_client_seed(self, seed_id: uuid.UUID, client_seed: str) -> None:
        self._session.execute(
            update(fair_seeds).where(fair_seeds.c.id == seed_id).values(client_seed=client_seed)
        )

    def reveal(self, seed_id: uuid.UUID, at: datetime) -> Seed:
        row = self._session.execute(
            update(fair_seeds)
            .where(fair_seeds.c.id == seed_id)
            .values(revealed_at=at)
            .returning(*fair_seeds.c)
        ).one()
        return _seed(row)

    def add_roll(self, roll: dict[str, Any]) -> None:
        self._session.execute(insert(fair_rolls).values(**roll))

    def roll_of(self, source_type: str, source_id: str) -> dict[str, Any] | None:
        rows = self._rolls().where(
            fair_rolls.c.source_type == source_type, fair_rolls.c.source_id == source_id
        )
        row = self._session.execute(rows).first()
        return dict(row._mapping) if row else None

    def rolls(self, player_id: uuid.UUID, before: int | None, limit: int) -> list[dict[str, Any]]:
        query = self._rolls().where(fair_rolls.c.player_id == player_id)
        if before is not None:
            query = query.where(fair_rolls.c.seq < before)
        rows = self._session.execute(query.order_by(fair_rolls.c.seq.desc()).limit(limit)).all()
        return [dict(row._mapping) for row in rows]

    def _rolls(self) -> Any:
        """Rolls with their seed's hash, and the seed itself once it is revealed."""
        return select(
            *fair_rolls.c,
            fair_seeds.c.server_seed_hash,
            fair_seeds.c.revealed_at,
            fair_seeds.c.server_seed,
        ).join(fair_seeds, fair_seeds.c.id == fair_rolls.c.seed_id)
