"""The pack inventory in PostgreSQL: grants, packs, openings."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import pack_grants, pack_openings, packs


class SqlPacks:
    def __init__(self, session: Session) -> None:
        self._session = session

    def grant_by_key(self, player_id: uuid.UUID, key: str) -> dict[str, Any] | None:
        row = self._session.execute(
            select(pack_grants).where(
                pack_grants.c.player_id == player_id, pack_grants.c.idempotency_key == key
            )
        ).first()
        return dict(row._mapping) if row else None

    def add_grant(self, grant: dict[str, Any], pack_ids: Sequence[uuid.UUID]) -> None:
        self._session.execute(insert(pack_grants).values(**grant))
        self._session.execute(
            insert(packs),
            [
                {
                    "id": pack_id,
                    "grant_id": grant["id"],
                    "player_id": grant["player_id"],
                    "game": grant["game"],
                    "kind": grant["kind"],
                    "granted_at": grant["granted_at"],
                }
                for pack_id in pack_ids
            ],
        )

    def of_grant(self, grant_id: uuid.UUID) -> list[dict[str, Any]]:
        rows = self._session.execute(
            select(packs).where(packs.c.grant_id == grant_id).order_by(packs.c.id)
        ).all()
        return [dict(row._mapping) for row in rows]

    def get(self, player_id: uuid.UUID, pack_id: uuid.UUID) -> dict[str, Any] | None:
        row = self._session.execute(
            select(packs).where(packs.c.id == pack_id, packs.c.player_id == player_id)
        ).first()
        return dict(row._mapping) if row else None

    def claim(self, pack_id: uuid.UUID, at: datetime) -> bool:
        """Mark an unopened pack opened; False if it was already (one opening wins)."""
        claimed = self._session.execute(
            update(packs)
            .where(packs.c.id == pack_id, packs.c.opened_at.is_(None), packs.c.sold_at.is_(None))
            .values(opened_at=at)
            .returning(packs.c.id)
        ).first()
        return claimed is not None

    def sell(self, pack_id: uuid.UUID, at: datetime, entry_id: uuid.UUID) -> bool:
        """Mark an unopened pack sold back; False if it was opened or sold already."""
        sold = self._session.execute(
            update(packs)
            .where(packs.c.id == pack_id, packs.c.opened_at.is_(None), packs.c.sold_at.is_(None))
            .values(sold_at=at, sale_entry_id=entry_id)
            .returning(packs.c.id)
        ).first()
        return sold is not None

    def sold_by(self, entry_id: uuid.UUID) -> dict[str, Any] | None:
        row = self._session.execute(select(packs).where(packs.c.sale_entry_id == entry_id)).first()
        return dict(row._mapping) if row else None

    def unopened(self, player_id: uuid.UUID, game: str) -> list[dict[str, Any]]:
        rows = self._session.execute(
            select(packs)
            .where(
                packs.c.player_id == player_id,
                packs.c.game == game,
                packs.c.opened_at.is_(None),
                packs.c.sold_at.is_(None),
            )
            .order_by(packs.c.granted_at, packs.c.id)
        ).all()
        return [dict(row._mapping) for row in rows]

    def unopened_count(
        self, player_id: uuid.UUID, game: str, kinds: Sequence[str] | None = None
    ) -> int:
        query = select(func.count()).where(
            packs.c.player_id == player_id,
            packs.c.game == game,
            packs.c.opened_at.is_(None),
            packs.c.sold_at.is_(None),
        )
        if kinds is not None:
            query = query.where(packs.c.kind.in_(list(kinds)))
        return int(self._session.execute(query).scalar_one())

    def opening_by_key(self, player_id: uuid.UUID, key: str) -> dict[str, Any] | None:
        row = self._session.execute(
            select(pack_openings).where(
                pack_openings.c.player_id == player_id, pack_openings.c.idempotency_key == key
            )
        ).first()
        return dict(row._mapping) if row else None

    def opening_of(self, pack_id: uuid.UUID) -> dict[str, Any] | None:
        row = self._session.execute(
            select(pack_openings).where(pack_openings.c.pack_id == pack_id)
        ).first()
        return dict(row._mapping) if row else None

    def add_opening(self, opening: dict[str, Any]) -> None:
        self._session.execute(insert(pack_openings).values(**opening))
