"""The matchmaking queue, invitations and pseudonyms in PostgreSQL (services/battle/pvp.py).

Pairing is race-free across gateway replicas and battle workers: a join first commits
its own entry, then pairs the two oldest entries under row locks taken in one order
(``oldest_two``: ``ORDER BY joined_at, player_id ... FOR UPDATE``). Whoever locks the
oldest entry first pairs; a concurrent pairer waits for it, then finds those entries
gone and locks the next ones. An entry is never in two matches, and once every join's
pairing step has run, at most one player of a game waits.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, literal, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from services.battle.orm import pvp_invitations, pvp_pseudonyms, pvp_queue
from services.battle.purge import player_gate
from services.battle.repository import SqlMatches
from shared.db import Database, UnitOfWork
from shared.player_gate import PlayerGate


@dataclass(frozen=True)
class DeckSnapshot:
    """A legal deck as the cards service handed it over: its cards' kinds and definitions."""

    deck_id: uuid.UUID
    version: int
    cards: list[dict[str, Any]]


@dataclass(frozen=True)
class QueueEntry:
    player_id: uuid.UUID
    game: str
    deck: DeckSnapshot
    joined_at: datetime


@dataclass(frozen=True)
class Invitation:
    id: uuid.UUID
    game: str
    from_player_id: uuid.UUID
    to_player_id: uuid.UUID
    deck: DeckSnapshot
    status: str
    match_id: uuid.UUID | None
    created_at: datetime
    expires_at: datetime
    updated_at: datetime
    live_challenge: bool = False  # Quest's live challenge (2 minutes, a live match)


def _deck(row: Any) -> DeckSnapshot:
    return DeckSnapshot(row.deck_id, row.deck_version, list(row.deck))


def _entry(row: Any) -> QueueEntry:
    return QueueEntry(row.player_id, row.game, _deck(row), row.joined_at)


def _invitation(row: Any) -> Invitation:
    return Invitation(
        id=row.id,
        game=row.game,
        from_player_id=row.from_player_id,
        to_player_id=row.to_player_id,
        deck=_deck(row),
        status=row.status,
        match_id=row.match_id,
        created_at=row.created_at,
        expires_at=row.expires_at,
        updated_at=row.updated_at,
        live_challenge=row.live_challenge,
    )


def _deck_columns(deck: DeckSnapshot) -> dict[str, Any]:
    return {"deck_id": deck.deck_id, "deck_version": deck.version, "deck": deck.cards}


class SqlPvp:
    def __init__(self, session: Session) -> None:
        self._session = session

    # -- pseudonyms ---------------------------------------------------------------------

    def remember(self, player_id: uuid.UUID, pseudonym: str) -> None:
        self._session.execute(
            pg_insert(pvp_pseudonyms)
            .values(player_id=player_id, pseudonym=pseudonym)
            .on_conflict_do_nothing(index_elements=["player_id"])
        )

    def players_named(self, pseudonym: str) -> list[uuid.UUID]:
        rows = self._session.execute(
            select(pvp_pseudonyms.c.player_id).where(pvp_pseudonyms.c.pseudonym == pseudonym)
        ).scalars()
        return list(rows)

    # -- the queue ------------------------------------------------------------------------

    def entry(self, player_id: uuid.UUID) -> QueueEntry | None:
        row = self._session.execute(
            select(pvp_queue).where(pvp_queue.c.player_id == player_id)
        ).first()
        return _entry(row) if row else None

    def enqueue(self, entry: QueueEntry) -> None:
        """Join (or, joined already, change the deck and keep one's place)."""
        insert = pg_insert(pvp_queue).values(
            player_id=entry.player_id,
            game=entry.game,
            joined_at=entry.joined_at,
            **_deck_columns(entry.deck),
        )
        self._session.execute(
            insert.on_conflict_do_update(
                index_elements=["player_id"],
                set_={
                    "game": insert.excluded.game,
                    "deck_id": insert.excluded.deck_id,
                    "deck_version": insert.excluded.deck_version,
                    "deck": insert.excluded.deck,
                },
            )
        )

    def dequeue(self, player_ids: Sequence[uuid.UUID]) -> int:
        deleted = self._session.execute(
            delete(pvp_queue).where(pvp_queue.c.player_id.in_(player_ids)).returning(literal(1))
        ).all()
        return len(deleted)

    def oldest_two(self, game: str) -> list[QueueEntry]:
        """The two players waiting longest for ``game``, locked (in the one lock order)."""
        rows = self._session.execute(
            select(pvp_queue)
            .where(pvp_queue.c.game == game)
            .order_by(pvp_queue.c.joined_at, pvp_queue.c.player_id)
            .limit(2)
            .with_for_update()
        ).all()
        return [_entry(r) for r in rows]

    def waiting(self, game: str) -> int:
        found = self._session.execute(
            select(func.count()).select_from(pvp_queue).where(pvp_queue.c.game == game)
        ).scalar()
        return int(found or 0)

    # -- invitations ----------------------------------------------------------------------

    def add_invitation(self, invitation: Invitation) -> bool:
        """Insert it unless the same pair already has one pending (the unique index)."""
        inserted = self._session.execute(
            pg_insert(pvp_invitations)
            .values(
                id=invitation.id,
                game=invitation.game,
                from_player_id=invitation.from_player_id,
                to_player_id=invitation.to_player_id,
                status=invitation.status,
                match_id=invitation.match_id,
                created_at=invitation.created_at,
                expires_at=invitation.expires_at,
                updated_at=invitation.updated_at,
                live_challenge=invitation.live_challenge,
                **_deck_columns(invitation.deck),
            )
            .on_conflict_do_nothing()
            .returning(literal(1))
        ).first()
        return inserted is not None

    def invitation(self, invitation_id: uuid.UUID, for_update: bool = False) -> Invitation | None:
        query = select(pvp_invitations).where(pvp_invitations.c.id == invitation_id)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return _invitation(row) if row else None

    def pending_sent(self, player_id: uuid.UUID, game: str, now: datetime) -> int:
        found = self._session.execute(
            select(func.count())
            .select_from(pvp_invitations)
            .where(
                pvp_invitations.c.from_player_id == player_id,
                pvp_invitations.c.game == game,
                pvp_invitations.c.status == "pending",
                pvp_invitations.c.expires_at > now,
            )
        ).scalar()
        return int(found or 0)

    def invitations_of(
        self,
        player_id: uuid.UUID,
        game: str,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Invitation]:
        """The player's invitations of ``game`` (both kinds), sent or received, newest
        first (by when it was sent, then id), only those after ``before`` in that order;
        ``limit`` at most (a keyset page, shared/pages.py)."""
        query = select(pvp_invitations).where(
            or_(
                pvp_invitations.c.from_player_id == player_id,
                pvp_invitations.c.to_player_id == player_id,
            ),
            pvp_invitations.c.game == game,
        )
        if before is not None:
            query = query.where(
                tuple_(pvp_invitations.c.created_at, pvp_invitations.c.id) < tuple_(*before)
            )
        rows = self._session.execute(
            query.order_by(pvp_invitations.c.created_at.desc(), pvp_invitations.c.id.desc()).limit(
                limit
            )
        ).all()
        return [_invitation(r) for r in rows]

    def set_status(
        self, invitation_id: uuid.UUID, status: str, now: datetime, match_id: uuid.UUID | None
    ) -> None:
        self._session.execute(
            update(pvp_invitations)
            .where(pvp_invitations.c.id == invitation_id)
            .values(status=status, match_id=match_id, updated_at=now)
        )

    def expire(self, now: datetime, limit: int) -> list[Invitation]:
        """Mark pending invitations past their time expired (the sweeper; skip locked) ->
        those it marked."""
        due = (
            select(pvp_invitations.c.id)
            .where(pvp_invitations.c.status == "pending", pvp_invitations.c.expires_at <= now)
            .order_by(pvp_invitations.c.expires_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        done = self._session.execute(
            update(pvp_invitations)
            .where(pvp_invitations.c.id.in_(due))
            .values(status="expired", updated_at=now)
            .returning(*pvp_invitations.c)
        ).all()
        return [_invitation(r) for r in done]


@dataclass
class PvpUnitOfWork:
    pvp: SqlPvp
    matches: SqlMatches
    events: UnitOfWork
    players: PlayerGate


@contextmanager
def pvp_unit_of_work(db: Database) -> Iterator[PvpUnitOfWork]:
    with db.transaction() as tx:
        session = tx.session
        yield PvpUnitOfWork(SqlPvp(session), SqlMatches(session), tx, player_gate(session))
