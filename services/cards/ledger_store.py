"""The currency ledger in PostgreSQL: balances, entries, per-UTC-day counters."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import currency_balances, daily_counters, ledger_entries


class SqlLedger:
    def __init__(self, session: Session) -> None:
        self._session = session

    def entry_by_key(self, player_id: uuid.UUID, key: str) -> dict[str, Any] | None:
        row = self._session.execute(
            select(ledger_entries).where(
                ledger_entries.c.player_id == player_id,
                ledger_entries.c.idempotency_key == key,
            )
        ).first()
        return dict(row._mapping) if row else None

    def entry(self, entry_id: uuid.UUID) -> dict[str, Any] | None:
        row = self._session.execute(
            select(ledger_entries).where(ledger_entries.c.id == entry_id)
        ).first()
        return dict(row._mapping) if row else None

    def balances(self, player_id: uuid.UUID, game: str) -> dict[str, int]:
        rows = self._session.execute(
            select(currency_balances.c.currency, currency_balances.c.balance).where(
                currency_balances.c.player_id == player_id, currency_balances.c.game == game
            )
        ).all()
        return {row.currency: row.balance for row in rows}

    def add(
        self,
        player_id: uuid.UUID,
        game: str,
        currency: str,
        amount: int,
        at: datetime,
        max_balance: int | None,
    ) -> int | None:
        """Add ``amount``; the new balance, or None when it would pass ``max_balance``."""
        table = currency_balances
        statement = insert(table).values(
            player_id=player_id, game=game, currency=currency, balance=amount, updated_at=at
        )
        where = None
        if max_balance is not None:
            if amount > max_balance:
                return None
            where = table.c.balance + statement.excluded.balance <= max_balance
        row = self._session.execute(
            statement.on_conflict_do_update(
                index_elements=["player_id", "game", "currency"],
                set_={"balance": table.c.balance + statement.excluded.balance, "updated_at": at},
                where=where,
            ).returning(table.c.balance)
        ).first()
        return row.balance if row else None

    def take(
        self, player_id: uuid.UUID, game: str, currency: str, amount: int, at: datetime
    ) -> int | None:
        """One conditional UPDATE: the new balance, or None when it holds less than
        ``amount`` (so a balance never goes below zero, whatever runs at the same time)."""
        table = currency_balances
        row = self._session.execute(
            update(table)
            .where(
                table.c.player_id == player_id,
                table.c.game == game,
                table.c.currency == currency,
                table.c.balance >= amount,
            )
            .values(balance=table.c.balance - amount, updated_at=at)
            .returning(table.c.balance)
        ).first()
        return row.balance if row else None

    def count(
        self,
        player_id: uuid.UUID,
        game: str,
        counter: str,
        day: date,
        amount: int,
        limit: int,
    ) -> bool:
        """Add ``amount`` to a day's counter unless that passes ``limit``."""
        table = daily_counters
        if amount > limit:
            return False
        statement = insert(table).values(
            player_id=player_id, game=game, counter=counter, day=day, amount=amount
        )
        row = self._session.execute(
            statement.on_conflict_do_update(
                index_elements=["player_id", "game", "counter", "day"],
                set_={"amount": table.c.amount + statement.excluded.amount},
                where=table.c.amount + statement.excluded.amount <= limit,
            ).returning(table.c.amount)
        ).first()
        return row is not None

    def bump(self, player_id: uuid.UUID, game: str, counter: str, day: date) -> int:
        """Add 1 to a day's counter (no limit); its new value (1 for the day's first)."""
        table = daily_counters
        statement = insert(table).values(
            player_id=player_id, game=game, counter=counter, day=day, amount=1
        )
        return int(
            self._session.execute(
                statement.on_conflict_do_update(
                    index_elements=["player_id", "game", "counter", "day"],
                    set_={"amount": table.c.amount + 1},
                ).returning(table.c.amount)
            ).scalar_one()
        )

    def used(self, player_id: uuid.UUID, game: str, counter: str, day: date) -> int:
        table = daily_counters
        found = self._session.execute(
            select(table.c.amount).where(
                table.c.player_id == player_id,
                table.c.game == game,
                table.c.counter == counter,
                table.c.day == day,
            )
        ).scalar()
        return int(found or 0)

    def add_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        row = self._session.execute(
            insert(ledger_entries).values(**entry).returning(*ledger_entries.c)
        ).one()
        return dict(row._mapping)

    def entries(
        self,
        player_id: uuid.UUID,
        game: str,
        currency: str | None,
        before: int | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        table = ledger_entries
        query = select(table).where(table.c.player_id == player_id, table.c.game == game)
        if currency is not None:
            query = query.where(table.c.currency == currency)
        if before is not None:
            query = query.where(table.c.seq < before)
        rows = self._session.execute(query.order_by(table.c.seq.desc()).limit(limit)).all()
        return [dict(row._mapping) for row in rows]
