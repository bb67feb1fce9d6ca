"""Saved decks in PostgreSQL. Every query is scoped to the owning player, so
another player's deck id reads exactly like an unknown one."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from services.cards.orm import deck_cards, decks


@dataclass(frozen=True)
class Deck:
    id: uuid.UUID
    player_id: uuid.UUID
    game: str
    name: str
    version: int
    created_at: datetime
    updated_at: datetime
    copy_ids: tuple[uuid.UUID, ...]


class SqlDecks:
    def __init__(self, session: Session) -> None:
        self._session = session

    def count(self, player_id: uuid.UUID, game: str) -> int:
        return int(
            self._session.execute(
                select(func.count())
                .select_from(decks)
                .where(decks.c.player_id == player_id, decks.c.game == game)
            ).scalar_one()
        )

    def get(
        self, player_id: uuid.UUID, deck_id: uuid.UUID, *, for_update: bool = False
    ) -> Deck | None:
        query = select(decks).where(decks.c.id == deck_id, decks.c.player_id == player_id)
        row = self._session.execute(query.with_for_update() if for_update else query).first()
        if row is None:
            return None
        return self._deck(row, self._copy_ids([row.id])[row.id])

    def of_player(self, player_id: uuid.UUID, game: str) -> list[Deck]:
        rows = self._session.execute(
            select(decks)
            .where(decks.c.player_id == player_id, decks.c.game == game)
            .order_by(decks.c.created_at, decks.c.id)
        ).all()
        cards = self._copy_ids([row.id for row in rows])
        return [self._deck(row, cards[row.id]) for row in rows]

    def add(self, deck: Deck) -> None:
        self._session.execute(
            insert(decks).values(
                id=deck.id,
                player_id=deck.player_id,
                game=deck.game,
                name=deck.name,
                version=deck.version,
                created_at=deck.created_at,
                updated_at=deck.updated_at,
            )
        )
        self._replace_cards(deck.id, deck.copy_ids)

    def save(self, deck: Deck, *, cards_changed: bool) -> None:
        self._session.execute(
            update(decks)
            .where(decks.c.id == deck.id)
            .values(name=deck.name, version=deck.version, updated_at=deck.updated_at)
        )
        if cards_changed:
            self._replace_cards(deck.id, deck.copy_ids)

    def remove(self, deck_id: uuid.UUID) -> None:
        self._session.execute(delete(decks).where(decks.c.id == deck_id))

    def _replace_cards(self, deck_id: uuid.UUID, copy_ids: Sequence[uuid.UUID]) -> None:
        self._session.execute(delete(deck_cards).where(deck_cards.c.deck_id == deck_id))
        if not copy_ids:  # an empty list (a Chronovore work in progress): no rows to add
            return
        self._session.execute(
            insert(deck_cards),
            [
                {"deck_id": deck_id, "position": position, "owned_card_id": copy_id}
                for position, copy_id in enumerate(copy_ids)
            ],
        )

    def _copy_ids(self, deck_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[uuid.UUID]]:
        found: dict[uuid.UUID, list[uuid.UUID]] = {deck_id: [] for deck_id in deck_ids}
        if not deck_ids:
            return found
        rows = self._session.execute(
            select(deck_cards.c.deck_id, deck_cards.c.owned_card_id)
            .where(deck_cards.c.deck_id.in_(deck_ids))
            .order_by(deck_cards.c.deck_id, deck_cards.c.position)
        ).all()
        for row in rows:
            found[row.deck_id].append(row.owned_card_id)
        return found

    @staticmethod
    def _deck(row: object, copy_ids: list[uuid.UUID]) -> Deck:
        r = row._mapping  # type: ignore[attr-defined]
        return Deck(
            r["id"],
            r["player_id"],
            r["game"],
            r["name"],
            r["version"],
            r["created_at"],
            r["updated_at"],
            tuple(copy_ids),
        )
