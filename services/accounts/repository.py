"""Players and their progression in PostgreSQL, and the accounts units of work."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, select, true, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.accounts.domain import (
    Player,
    PlayerStatus,
    Progression,
    ProgressionEntry,
    Reason,
    SourceType,
)
from services.accounts.orm import deleted_identities, players, progression_entries
from shared.clock import Clock
from shared.db import Database
from shared.events import Event


class PlayerRepository(Protocol):
    def by_subject(self, sub: str) -> Player | None: ...

    def add_if_new(self, player: Player) -> bool:
        """Insert unless the subject exists; True if this call inserted it."""
        ...


class EventSink(Protocol):
    def add_event(self, event: Event) -> None: ...


class DeletedIdentities(Protocol):
    def is_deleted(self, sub: str, now: datetime) -> bool:
        """True while a deleted account's identity digest for ``sub`` lives (30 days)."""
        ...


@dataclass
class AccountsUnitOfWork:
    players: PlayerRepository
    events: EventSink
    # Checked before registering a subject; None where deletion plays no part.
    deleted_identities: DeletedIdentities | None = None


class ProgressionRepository(Protocol):
    def player_exists(self, player_id: uuid.UUID) -> bool: ...

    def add_entry(self, entry: ProgressionEntry, recorded_at: datetime) -> bool:
        """Insert unless its source already has an entry; True if this call inserted it."""
        ...

    def add_points(self, player_id: uuid.UUID, points: int) -> None: ...

    def progression(self, player_id: uuid.UUID, limit: int) -> Progression | None:
        """The player's points and newest ``limit`` entries; None for an unknown player."""
        ...


class Inbox(Protocol):
    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool: ...


@dataclass
class ProgressionUnitOfWork:
    progression: ProgressionRepository
    inbox: Inbox
    clock: Clock  # when entries are recorded


def player_from_row(row: Any) -> Player:
    return Player(row.id, row.auth0_sub, PlayerStatus(row.status), row.registered_at, row.points)


class SqlPlayerRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def by_subject(self, sub: str) -> Player | None:
        row = self._session.execute(select(players).where(players.c.auth0_sub == sub)).first()
        return player_from_row(row) if row else None

    def add_if_new(self, player: Player) -> bool:
        inserted = self._session.execute(
            insert(players)
            .values(
                id=player.id,
                auth0_sub=player.auth0_sub,
                status=player.status.value,
                registered_at=player.registered_at,
                points=player.points,
            )
            .on_conflict_do_nothing(index_elements=["auth0_sub"])
            .returning(players.c.id)
        ).first()
        return inserted is not None


class SqlProgressionRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def player_exists(self, player_id: uuid.UUID) -> bool:
        # FOR KEY SHARE: the player cannot be deleted before the entry that refers to
        # it commits (the same lock the foreign key would take on insert).
        row = self._session.execute(
            select(players.c.id).where(players.c.id == player_id).with_for_update(key_share=True)
        ).first()
        return row is not None

    def add_entry(self, entry: ProgressionEntry, recorded_at: datetime) -> bool:
        # A concurrent insert of the same source waits for the first to commit, then
        # does nothing: exactly one transaction adds the source's points.
        inserted = self._session.execute(
            insert(progression_entries)
            .values(
                player_id=entry.player_id,
                game=entry.game,
                source_type=entry.source_type.value,
                source_id=entry.source_id,
                points=entry.points,
                reason=entry.reason.value,
                correct_count=entry.correct_count,
                occurred_at=entry.occurred_at,
                recorded_at=recorded_at,
            )
            .on_conflict_do_nothing(index_elements=["source_type", "source_id"])
            .returning(progression_entries.c.id)
        ).first()
        return inserted is not None

    def add_points(self, player_id: uuid.UUID, points: int) -> None:
        if points < 0:
            raise ValueError("progression points are never taken away")
        self._session.execute(
            update(players)
            .where(players.c.id == player_id)
            .values(points=players.c.points + points)
        )

    def progression(self, player_id: uuid.UUID, limit: int) -> Progression | None:
        """One statement, so the total and the entries come from one snapshot."""
        entries = progression_entries.c
        recent = (
            select(
                entries.id,
                entries.game,
                entries.source_type,
                entries.source_id,
                entries.points,
                entries.reason,
                entries.correct_count,
                entries.occurred_at,
            )
            .where(entries.player_id == players.c.id)
            .order_by(entries.occurred_at.desc(), entries.id.desc())
            .limit(limit)
            .lateral("recent")
        )
        rows = self._session.execute(
            select(players.c.points.label("total"), recent)
            .select_from(players.outerjoin(recent, true()))
            .where(players.c.id == player_id)
            .order_by(recent.c.occurred_at.desc(), recent.c.id.desc())
        ).all()
        if not rows:
            return None
        return Progression(
            player_id=player_id,
            points=rows[0].total,
            entries=[_entry(player_id, row) for row in rows if row.id is not None],
        )


class SqlDeletedIdentities:
    """For registration: is this subject a deleted identity whose digest still lives?"""

    def __init__(self, session: Session, digest: Callable[[str], str]) -> None:
        self._session = session
        self._digest = digest

    def is_deleted(self, sub: str, now: datetime) -> bool:
        found = self._session.execute(
            select(func.count())
            .select_from(deleted_identities)
            .where(
                deleted_identities.c.digest == self._digest(sub),
                deleted_identities.c.expires_at > now,
            )
        ).scalar_one()
        return bool(found)


def _entry(player_id: uuid.UUID, row: Any) -> ProgressionEntry:
    return ProgressionEntry(
        player_id=player_id,
        source_type=SourceType(row.source_type),
        source_id=row.source_id,
        points=row.points,
        reason=Reason(row.reason),
        correct_count=row.correct_count,
        occurred_at=row.occurred_at,
        game=row.game,
    )


@contextmanager
def player_reader(db: Database) -> Iterator[PlayerRepository]:
    """Players for a single lookup outside any transaction (one round trip)."""
    with db.autocommit() as session:
        yield SqlPlayerRepository(session)


@contextmanager
def progression_reader(db: Database) -> Iterator[ProgressionRepository]:
    """Progression for a single-statement read outside any transaction."""
    with db.autocommit() as session:
        yield SqlProgressionRepository(session)


@contextmanager
def unit_of_work(
    db: Database, digest: Callable[[str], str] | None = None
) -> Iterator[AccountsUnitOfWork]:
    """``digest`` (the deleted-identity HMAC) makes registration refuse deleted identities."""
    with db.transaction() as tx:
        yield AccountsUnitOfWork(
            players=SqlPlayerRepository(tx.session),
            events=tx,
            deleted_identities=SqlDeletedIdentities(tx.session, digest) if digest else None,
        )


@contextmanager
def progression_unit_of_work(db: Database, clock: Clock) -> Iterator[ProgressionUnitOfWork]:
    with db.transaction() as tx:
        yield ProgressionUnitOfWork(
            progression=SqlProgressionRepository(tx.session), inbox=tx, clock=clock
        )
