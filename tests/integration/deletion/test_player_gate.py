"""shared/player_gate.py on real PostgreSQL (the cards database's tombstone table)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import eventlet
import pytest
import sqlalchemy as sa
from eventlet.event import Event

from services.cards import orm
from services.cards.purge import player_gate
from shared.db import Database, make_engine
from shared.errors import Forbidden
from shared.player_gate import TOMBSTONE_DAYS, player_digest
from tests.helpers import wait_for

pytestmark = pytest.mark.integration

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def db(settings):
    engine = make_engine(settings.database_url_for("cards"), pool_size=3)
    yield Database(engine, orm.plumbing, lambda: NOW)
    engine.dispose()


def waiting_on_advisory_lock(db):
    with db.autocommit() as session:
        return session.execute(
            sa.text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        ).scalar_one()


def tombstones(db):
    with db.read() as session:
        return set(session.execute(sa.select(orm.purged_players.c.player_digest)).scalars())


def test_a_write_waiting_on_the_purge_is_refused_once_the_purge_commits(db):
    player = uuid.uuid4()
    sealed, outcome = Event(), []

    def write():
        sealed.wait()
        with db.transaction() as tx:
            try:
                player_gate(tx.session).admit(player)
                outcome.append("admitted")
            except Forbidden as refusal:
                outcome.append(refusal.code)

    writer = eventlet.spawn(write)
    with db.transaction() as tx:
        player_gate(tx.session).seal(player, NOW)
        sealed.send()
        wait_for(lambda: waiting_on_advisory_lock(db))  # the writer waits for this commit
        assert outcome == []
    writer.wait()
    assert outcome == ["account_locked"]


def test_a_sweeper_skips_a_player_whose_lock_is_held_and_a_purged_one(db):
    busy, purged, free = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with db.transaction() as tx:
        player_gate(tx.session).seal(purged, NOW)
    with db.transaction() as holder:
        player_gate(holder.session).admit(busy)
        with db.transaction() as sweeper:
            gate = player_gate(sweeper.session)
            assert [gate.try_admit(p) for p in (busy, purged, free)] == [False, False, True]


def test_the_tombstone_is_a_digest_and_expires_after_its_days(db):
    old, new = uuid.uuid4(), uuid.uuid4()
    with db.transaction() as tx:
        player_gate(tx.session).seal(old, NOW - timedelta(days=TOMBSTONE_DAYS, seconds=1))
    assert player_digest("cards", old) in tombstones(db)
    assert not any(str(old) in d or old.hex in d for d in tombstones(db))
    with db.transaction() as tx:
        player_gate(tx.session).seal(new, NOW)  # each purge clears expired tombstones
    assert player_digest("cards", old) not in tombstones(db)
    assert player_digest("cards", new) in tombstones(db)


def test_the_same_player_has_another_digest_in_each_service():
    player = uuid.uuid4()
    assert len({player_digest(s, player) for s in ("cards", "challenge", "battle")}) == 3
