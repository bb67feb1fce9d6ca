"""Players in PostgreSQL, and the accounts unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.accounts.domain import Player, PlayerStatus
from services.accounts.orm import players
from shared.db import Database
from shared.events import Event


class PlayerRepository(Protocol):
    def by_subject(self, sub: str) -> Player | None: ...

    def add_if_new(self, player: Player) -> bool:
        """Insert unless the subject exists; True if this call inserted it."""
        ...


class EventSink(Protocol):
    def add_event(self, event: Event) -> None: ...


@dataclass
class AccountsUnitOfWork:
    players: PlayerRepository
    events: EventSink


def _player(row: object) -> Player:
    return Player(row.id, row.auth0_sub, PlayerStatus(row.status), row.registered_at)  # type: ignore[attr-defined]


class SqlPlayerRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def by_subject(self, sub: str) -> Player | None:
        row = self._session.execute(select(players).where(players.c.auth0_sub == sub)).first()
        return _player(row) if row else None

    def add_if_new(self, player: Player) -> bool:
        inserted = self._session.execute(
            insert(players)
            .values(
                id=player.id,
                auth0_sub=player.auth0_sub,
                status=player.status.value,
                registered_at=player.registered_at,
            )
            .on_conflict_do_nothing(index_elements=["auth0_sub"])
            .returning(players.c.id)
        ).first()
        return inserted is not None


@contextmanager
def player_reader(db: Database) -> Iterator[PlayerRepository]:
    """Players for a single lookup outside any transaction (one round trip)."""
    with db.autocommit() as session:
        yield SqlPlayerRepository(session)


@contextmanager
def unit_of_work(db: Database) -> Iterator[AccountsUnitOfWork]:
    with db.transaction() as tx:
        yield AccountsUnitOfWork(players=SqlPlayerRepository(tx.session), events=tx)
