"""Shreds and crafts, copies counted per card, weakened cards, capped finishes, in
PostgreSQL (crafting_handlers, pack_handlers)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import (
    card_definitions,
    crafting_entries,
    deck_cards,
    decks,
    finish_upgrades_owed,
    owned_cards,
)


class SqlCrafting:
    def __init__(self, session: Session) -> None:
        self._session = session

    def entry_by_key(self, player_id: uuid.UUID, key: str) -> dict[str, Any] | None:
        row = self._session.execute(
            select(crafting_entries).where(
                crafting_entries.c.player_id == player_id,
                crafting_entries.c.idempotency_key == key,
            )
        ).first()
        return dict(row._mapping) if row else None

    def add_entry(self, entry: dict[str, Any]) -> None:
        self._session.execute(insert(crafting_entries).values(**entry))

    def definition(self, definition_id: uuid.UUID) -> dict[str, Any] | None:
        definitions = card_definitions.c
        row = self._session.execute(
            select(
                definitions.id,
                definitions.lineage_id,
                definitions.game,
                definitions.kind,
                definitions.name,
                definitions.rarity,
                definitions.retired_at,
            ).where(definitions.id == definition_id)
        ).first()
        return dict(row._mapping) if row else None

    def active_version(self, lineage_id: uuid.UUID) -> uuid.UUID | None:
        definitions = card_definitions.c
        found = self._session.execute(
            select(definitions.id).where(
                definitions.lineage_id == lineage_id, definitions.retired_at.is_(None)
            )
        ).scalar()
        return found

    def copies_of_card(self, player_id: uuid.UUID, lineage_id: uuid.UUID) -> int:
        """The player's copies of a card (every version of its lineage, every finish)."""
        return int(
            self._session.execute(
                select(func.count())
                .select_from(owned_cards)
                .join(card_definitions, card_definitions.c.id == owned_cards.c.definition_id)
                .where(
                    owned_cards.c.player_id == player_id,
                    card_definitions.c.lineage_id == lineage_id,
                )
            ).scalar_one()
        )

    def decks_holding(self, copy_id: uuid.UUID) -> list[uuid.UUID]:
        rows = self._session.execute(
            select(decks.c.id)
            .join(deck_cards, deck_cards.c.deck_id == decks.c.id)
            .where(deck_cards.c.owned_card_id == copy_id)
            .order_by(decks.c.id)
        ).all()
        return [row.id for row in rows]

    def remove_copy(self, player_id: uuid.UUID, copy_id: uuid.UUID) -> bool:
        removed = self._session.execute(
            delete(owned_cards)
            .where(owned_cards.c.id == copy_id, owned_cards.c.player_id == player_id)
            .returning(owned_cards.c.id)
        ).first()
        return removed is not None

    def weakened(self, lineage_id: uuid.UUID, since: datetime, until: datetime) -> bool:
        """Whether a version of the card marked as a weakening was published in
        (``since``, ``until``] (authoring's ``weakening`` on a replacement)."""
        definitions = card_definitions.c
        found = self._session.execute(
            select(definitions.id)
            .where(
                definitions.lineage_id == lineage_id,
                definitions.snapshot["weakening"].as_boolean().is_(True),
                definitions.published_at > since,
                definitions.published_at <= until,
            )
            .limit(1)
        ).first()
        return found is not None

    def held_of_finish(self, player_id: uuid.UUID, game: str, finish: str) -> dict[Any, int]:
        """The player's copies of one finish per card (lineage)."""
        rows = self._session.execute(
            select(card_definitions.c.lineage_id, func.count().label("held"))
            .select_from(owned_cards)
            .join(card_definitions, card_definitions.c.id == owned_cards.c.definition_id)
            .where(
                owned_cards.c.player_id == player_id,
                owned_cards.c.finish == finish,
                card_definitions.c.game == game,
            )
            .group_by(card_definitions.c.lineage_id)
        ).all()
        return {row.lineage_id: int(row.held) for row in rows}

    def owed(self, player_id: uuid.UUID, game: str, finish: str) -> int:
        table = finish_upgrades_owed
        found = self._session.execute(
            select(table.c.amount).where(
                table.c.player_id == player_id, table.c.game == game, table.c.finish == finish
            )
        ).scalar()
        return int(found or 0)

    def set_owed(self, player_id: uuid.UUID, game: str, finish: str, amount: int) -> None:
        table = finish_upgrades_owed
        statement = insert(table).values(
            player_id=player_id, game=game, finish=finish, amount=amount
        )
        self._session.execute(
            statement.on_conflict_do_update(
                index_elements=["player_id", "game", "finish"], set_={"amount": amount}
            )
        )
