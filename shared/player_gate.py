"""The gate between a player's writes and the purge of that player's data.

A write that passed the gateway's "is the account active?" check may still commit
after the owning service purged the player; it would leave data naming a deleted
player behind. So each service that holds player data keeps a tombstone of the
players it purged (a one-way digest, never the id), and every transaction that
creates or changes a player's data first takes one per-player lock (a
transaction-scoped advisory lock) and then looks for the tombstone. The purge takes
the same lock first, deletes and writes the tombstone in one transaction. So a
write either commits before the purge starts (and the purge removes what it wrote)
or runs after it (and finds the tombstone): nothing survives.

Lock order, everywhere: the player's gate first, then rows. Sweepers hold rows
already (``FOR UPDATE SKIP LOCKED``), so they only *try* the gate and skip a player
who is busy; they never wait, so they never deadlock.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import (
    Column,
    ColumnElement,
    DateTime,
    MetaData,
    String,
    Table,
    exists,
    func,
    select,
)
from sqlalchemy.orm import Session

from shared.db import Statement, pipelined
from shared.errors import Forbidden

# Ours: long after any event about the player can still be in flight (the handlers
# retry for about 13 minutes before parking a message) and after the last token of
# the account expired; after that the player id can appear nowhere any more.
TOMBSTONE_DAYS = 30

PlayerKey = uuid.UUID | str  # a player id; in authoring, the author's subject


def account_locked() -> Forbidden:
    """The refusal of a write for a player whose purge has begun (403, as the gateway's)."""
    return Forbidden("account_locked", "this account is locked and cannot be used")


def purged_players_table(metadata: MetaData) -> Table:
    return Table(
        "purged_players",
        metadata,
        Column("player_digest", String(64), primary_key=True),
        Column("purged_at", DateTime(timezone=True), nullable=False),
    )


def player_digest(service: str, key: PlayerKey) -> str:
    """A one-way name for a purged player: the tombstone must not keep the id itself."""
    return hashlib.sha256(f"deckyard-{service}-purged:{key}".encode()).hexdigest()


class PlayerGate(Protocol):
    """What handlers see; ``SqlPlayerGate`` in services, ``shared.testing`` fakes in tests."""

    def admit(self, player_id: PlayerKey) -> None:
        """Wait for the player's lock; refuse (``account_locked``) a purged player."""

    def admits(self, player_id: PlayerKey) -> bool:
        """Wait for the player's lock; False for a purged player (event consumers)."""

    def try_admit(self, player_id: PlayerKey) -> bool:
        """The lock only if free now, and not purged; False otherwise (sweepers)."""


class SqlPlayerGate:
    """The gate over one service's ``purged_players`` table, in the caller's transaction."""

    def __init__(self, session: Session, service: str, tombstones: Table) -> None:
        self._session = session
        self._service = service
        self._tombstones = tombstones

    def admit(self, player_id: PlayerKey) -> None:
        if not self.admits(player_id):
            raise account_locked()

    def admits(self, player_id: PlayerKey) -> bool:
        # Two statements, not one: under READ COMMITTED a statement's snapshot is taken
        # when it starts, so a check in the locking statement would not see the tombstone
        # of the purge it waited for. Sent in one pipeline (with the transaction's BEGIN
        # when the gate comes first, as it does on every write): one round trip instead
        # of three, and the check still starts only once the lock is granted.
        digest = player_digest(self._service, player_id)
        lock = (_LOCK, (str(player_id),))
        found = (_purged_sql(self._tombstones.name), (digest,))
        purged = pipelined(self._session, [lock, found])[1]
        return not purged[0][0]

    def try_admit(self, player_id: PlayerKey) -> bool:
        locked = self._session.execute(
            select(func.pg_try_advisory_xact_lock(_lock_key(player_id)))
        ).scalar()
        return bool(locked) and not self._purged(player_id)

    def seal(self, player_id: PlayerKey, now: datetime, then: Sequence[Statement] = ()) -> None:
        """The purge's first step: take the lock, write the tombstone (and drop old ones);
        then ``then``, the purge's own statements, in the same round trip.

        Everything the purge deletes after this, in the same transaction, can no
        longer be recreated by a write waiting on the lock. One pipeline, not a round
        trip per statement: the lock is held until the purge commits, and every write
        of the player waits for it (with a worker of its service) meanwhile; a purge
        of two dozen statements on a busy process held it for seconds (issue 29)."""
        name = self._tombstones.name.replace('"', '""')
        digest = player_digest(self._service, player_id)
        sealing: list[Statement] = [
            (_LOCK, (str(player_id),)),
            (
                f'INSERT INTO "{name}" (player_digest, purged_at) VALUES (%s, %s) '
                "ON CONFLICT (player_digest) DO NOTHING",
                (digest, now),
            ),
            (
                f'DELETE FROM "{name}" WHERE purged_at < %s',
                (now - timedelta(days=TOMBSTONE_DAYS),),
            ),
        ]
        pipelined(self._session, [*sealing, *then])

    def _purged(self, player_id: PlayerKey) -> bool:
        digest = player_digest(self._service, player_id)
        found = self._session.execute(
            select(exists().where(self._tombstones.c.player_digest == digest))
        ).scalar()
        return bool(found)


_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"  # as _lock_key


@functools.cache
def _purged_sql(table: str) -> str:
    name = table.replace('"', '""')
    return f'SELECT EXISTS (SELECT 1 FROM "{name}" WHERE player_digest = %s)'


def _lock_key(player_id: PlayerKey) -> ColumnElement[Any]:
    # 64 bits of PostgreSQL's own text hash: the same key whichever process asks. Two
    # players sharing a key only wait for each other; they never see each other's data.
    return func.hashtextextended(str(player_id), 0)
