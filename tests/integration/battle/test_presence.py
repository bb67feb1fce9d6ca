"""Who battle counts as connected to the push channel (services/battle/presence.py), on
PostgreSQL: several replicas and connections, leases that run out (a replica's crash),
repeated reports that never move a disconnection later, a purged player not recorded."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from services.battle import presence
from services.battle.presence import LEASE, Presence
from services.battle.purge import player_gate, purge_player
from tests.integration.battle import support

pytestmark = pytest.mark.integration

battle_engine = support.battle_engine

GAME_T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # battle's (moved) clock
REAL_T0 = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)  # real time, for the leases
SECOND = timedelta(seconds=1)


def replica() -> str:
    return f"gateway-{uuid.uuid4()}"


def report(engine, replica_id, players, now, real_now, lease=LEASE):
    with Session(engine) as session, session.begin():
        presence.report(session, replica_id, players, now, real_now, lease)


def read(engine, player, real_now) -> Presence:
    with Session(engine) as session:
        return presence.presence_of(session, [player], real_now)[player]


def test_connected_while_any_replica_holds_a_connection(battle_engine):
    player, one, two = uuid.uuid4(), replica(), replica()
    assert read(battle_engine, player, REAL_T0) == Presence(False, None)  # never reported
    report(battle_engine, one, {player: 2}, GAME_T0, REAL_T0)
    report(battle_engine, two, {player: 1}, GAME_T0, REAL_T0)
    report(battle_engine, one, {player: 0}, GAME_T0 + 5 * SECOND, REAL_T0)
    assert read(battle_engine, player, REAL_T0) == Presence(True)  # still on the other
    report(battle_engine, two, {player: 0}, GAME_T0 + 9 * SECOND, REAL_T0)
    # Disconnected since the last close anywhere.
    assert read(battle_engine, player, REAL_T0) == Presence(False, GAME_T0 + 9 * SECOND)


def test_a_repeated_close_does_not_make_the_disconnection_later(battle_engine):
    player, one = uuid.uuid4(), replica()
    report(battle_engine, one, {player: 1}, GAME_T0, REAL_T0)
    report(battle_engine, one, {player: 0}, GAME_T0 + SECOND, REAL_T0)
    report(battle_engine, one, {player: 0}, GAME_T0 + 60 * SECOND, REAL_T0)  # a retry
    assert read(battle_engine, player, REAL_T0) == Presence(False, GAME_T0 + SECOND)


def test_a_replica_that_stops_renewing_leaves_nobody_connected(battle_engine):
    player, crashed = uuid.uuid4(), replica()
    report(battle_engine, crashed, {player: 1}, GAME_T0, REAL_T0)
    report(battle_engine, crashed, {}, GAME_T0 + 15 * SECOND, REAL_T0 + 15 * SECOND)  # renewed
    end = REAL_T0 + 15 * SECOND + LEASE
    assert read(battle_engine, player, end - SECOND) == Presence(True)
    # The lease ran out: disconnected since the last renewal (battle's clock).
    assert read(battle_engine, player, end) == Presence(False, GAME_T0 + 15 * SECOND)


def test_a_replica_may_not_ask_for_a_lease_beyond_five_minutes(battle_engine):
    player, greedy = uuid.uuid4(), replica()
    report(battle_engine, greedy, {player: 1}, GAME_T0, REAL_T0, lease=timedelta(days=1))
    assert read(battle_engine, player, REAL_T0 + timedelta(minutes=5)) == Presence(False, GAME_T0)


def test_a_purged_player_is_not_recorded_and_old_rows_are_forgotten(battle_engine):
    purged, kept, one = uuid.uuid4(), uuid.uuid4(), replica()
    with Session(battle_engine) as session, session.begin():
        player_gate(session).seal(purged, GAME_T0)
    report(battle_engine, one, {purged: 1, kept: 0}, GAME_T0, REAL_T0)
    assert read(battle_engine, purged, REAL_T0) == Presence(False, None)
    assert read(battle_engine, kept, REAL_T0) == Presence(False, GAME_T0)
    with Session(battle_engine) as session, session.begin():
        presence.forget_old(session, REAL_T0, GAME_T0 + presence.KEPT + SECOND)
    assert read(battle_engine, kept, REAL_T0) == Presence(False, None)


def test_account_deletion_leaves_nothing_of_the_players_connections(battle_engine):
    player, one = uuid.uuid4(), replica()
    report(battle_engine, one, {player: 1}, GAME_T0, REAL_T0)
    with Session(battle_engine) as session, session.begin():
        purge_player(session, player, GAME_T0)
    assert read(battle_engine, player, REAL_T0) == Presence(False, None)
    report(battle_engine, one, {player: 0}, GAME_T0, REAL_T0)  # its stream closing after
    assert read(battle_engine, player, REAL_T0) == Presence(False, None)
