"""Chronovore against another player on real PostgreSQL (services/battle/pvp.py): the
queue pairs concurrent joins race-free (every player in exactly one match, at most one
left waiting), invitations accepted while the same players join the queue or accept each
other's at once, expiry, and a deleted player's live match ending with the opponent's
win and "Deleted player" in the opponent's history."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import partial
from typing import Any

import eventlet
import pytest
import sqlalchemy as sa

from services.battle import handlers, pvp
from services.battle.games.chronovore import GAME, PVP_MODE
from services.battle.games.terrakard import pseudonym
from services.battle.orm import match_seats, matches, plumbing, pvp_invitations, pvp_queue
from services.battle.purge import purge_player
from services.battle.pvp_store import QueueEntry, pvp_unit_of_work
from services.battle.repository import unit_of_work
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.errors import Conflict, DeckyardError, NotFound
from shared.randomness import SeededRandomSource
from tests.helpers import wait_for
from tests.integration.battle.support import T0
from tests.unit.battle.test_chronovore_host import FakeCards

pytestmark = pytest.mark.integration

THREADS = 8


@pytest.fixture(scope="module")
def battle_db(settings):
    engine = make_engine(settings.database_url_for("battle"), pool_size=THREADS + 2)
    yield Database(engine, plumbing, lambda: T0)
    engine.dispose()


@pytest.fixture
def clock():
    return FixedClock(T0)


@pytest.fixture
def service(battle_db, clock):
    """The queue and invitations over the real database, the queue empty to start with
    and left empty: the database is the session's, and a player left waiting here would
    be paired with a later test's player (the e2e matches, the authorization matrix)."""
    with battle_db.transaction() as tx:
        tx.session.execute(sa.delete(pvp_queue))
    yield pvp.Pvp(partial(pvp_unit_of_work, battle_db), FakeCards(), clock, SeededRandomSource(3))
    with battle_db.transaction() as tx:
        tx.session.execute(sa.delete(pvp_queue))


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at once (released by one barrier) -> each result or its refusal."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        try:
            return call()
        except DeckyardError as refusal:
            return refusal

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def active_pvp_seats(battle_db, players) -> Counter[uuid.UUID]:
    with battle_db.transaction() as tx:
        rows = tx.session.execute(
            sa.select(match_seats.c.player_id)
            .join(matches, matches.c.id == match_seats.c.match_id)
            .where(
                match_seats.c.player_id.in_(players),
                matches.c.mode == PVP_MODE,
                matches.c.status == "active",
            )
        ).scalars()
        return Counter(rows)


def queued(battle_db) -> set[uuid.UUID]:
    with battle_db.transaction() as tx:
        return set(tx.session.execute(sa.select(pvp_queue.c.player_id)).scalars())


@pytest.mark.parametrize("players", [THREADS, THREADS - 1])
def test_concurrent_joins_put_each_player_in_exactly_one_match(service, battle_db, players):
    for _ in range(3):  # three waves, each all at once
        ids = [uuid.uuid4() for _ in range(players)]
        answers = together([partial(pvp.join_queue, service, p, uuid.uuid4()) for p in ids])
        assert not [a for a in answers if isinstance(a, Exception)], answers
        seated = active_pvp_seats(battle_db, ids)
        assert set(seated.values()) <= {1}  # nobody in two matches
        waiting = queued(battle_db)
        assert len(seated) == players - players % 2 and len(waiting) == players % 2
        assert waiting.isdisjoint(seated)
        with battle_db.transaction() as tx:  # the odd one out leaves before the next wave
            tx.session.execute(sa.delete(pvp_queue))


def test_a_pairing_waits_for_one_under_way_instead_of_passing_it_by(service, battle_db):
    """Two entries committed, not yet paired (between two joins' steps); another pairing
    holds the oldest (it saw only that one). This pairing waits for it, then pairs both:
    it never takes the second alone and leaves two players waiting."""
    players = sorted([uuid.uuid4(), uuid.uuid4()])  # same time: by id, the first is oldest
    for player in players:
        deck = pvp._snapshot(service, player, uuid.uuid4())
        with service.unit_of_work() as uow:
            uow.pvp.enqueue(QueueEntry(player, GAME, deck, T0))
    with battle_db.engine.connect() as holder:
        under_way = holder.begin()
        holder.execute(
            sa.select(pvp_queue).where(pvp_queue.c.player_id == players[0]).with_for_update()
        )
        pairing = eventlet.spawn(pvp.pair, service)
        wait_for(lambda: lock_waits(battle_db) > 0)
        under_way.commit()
    assert pairing.wait() == 1
    assert queued(battle_db) == set()
    assert active_pvp_seats(battle_db, players) == {players[0]: 1, players[1]: 1}


def lock_waits(battle_db) -> int:
    with battle_db.engine.connect() as conn:
        return int(
            conn.execute(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                )
            ).scalar()
        )


def test_a_join_refused_while_in_a_match_and_the_queue_as_each_player_sees_it(service):
    first, second = uuid.uuid4(), uuid.uuid4()
    assert pvp.join_queue(service, first, uuid.uuid4())["status"] == "queued"
    assert pvp.queue_status(service, first)["waiting"] == 1
    matched = pvp.join_queue(service, second, uuid.uuid4())
    assert matched["status"] == "matched" and matched["match_id"]
    assert pvp.queue_status(service, first)["match_id"] == matched["match_id"]
    with pytest.raises(Conflict) as refused:
        pvp.join_queue(service, first, uuid.uuid4())
    assert refused.value.code == "active_match_exists"
    with pytest.raises(NotFound):
        pvp.leave_queue(service, first)
    assert pvp.queue_status(service, uuid.uuid4())["status"] == "idle"


def test_accepting_while_joining_the_queue_never_seats_a_player_twice(service, battle_db):
    for _ in range(4):
        inviter, invitee, stranger = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        pvp.invitations(service, invitee, None, 20)  # the invitee's pseudonym is known from here on
        invitation = pvp.invite(service, inviter, pseudonym(invitee), uuid.uuid4())
        answers = together(
            [
                partial(pvp.accept, service, invitee, uuid.UUID(invitation["id"]), uuid.uuid4()),
                partial(pvp.join_queue, service, invitee, uuid.uuid4()),
                partial(pvp.join_queue, service, stranger, uuid.uuid4()),
            ]
        )
        assert not [a for a in answers if not isinstance(a, dict | Conflict)], answers
        players = [inviter, invitee, stranger]
        seated = active_pvp_seats(battle_db, players)
        assert set(seated.values()) <= {1}
        assert queued(battle_db).isdisjoint(seated)
        with battle_db.transaction() as tx:
            tx.session.execute(sa.delete(pvp_queue))


def test_two_players_accepting_each_others_invitations_at_once_make_one_match(service, battle_db):
    for _ in range(4):
        one, two = uuid.uuid4(), uuid.uuid4()
        pvp.invitations(service, one, None, 20)
        pvp.invitations(service, two, None, 20)
        to_two = pvp.invite(service, one, pseudonym(two), uuid.uuid4())
        to_one = pvp.invite(service, two, pseudonym(one), uuid.uuid4())
        answers = together(
            [
                partial(pvp.accept, service, two, uuid.UUID(to_two["id"]), uuid.uuid4()),
                partial(pvp.accept, service, one, uuid.UUID(to_one["id"]), uuid.uuid4()),
            ]
        )
        made = [a for a in answers if isinstance(a, dict)]
        refused = [a for a in answers if isinstance(a, Conflict)]
        assert len(made) == 1 and len(refused) == 1, answers
        assert refused[0].code == "active_match_exists"
        assert active_pvp_seats(battle_db, [one, two]) == {one: 1, two: 1}


def test_invitations_expire_decline_and_cancel(service, battle_db, clock):
    inviter, invitee = uuid.uuid4(), uuid.uuid4()
    listed = pvp.invitations(service, invitee, None, 20)
    assert listed == {"you": pseudonym(invitee), "items": [], "next": None}
    sent = pvp.invite(service, inviter, listed["you"], uuid.uuid4())
    assert (sent["status"], sent["sent"], sent["from"]) == ("pending", True, pseudonym(inviter))
    assert sent["expires_at"] == (T0 + timedelta(minutes=pvp.INVITATION_MINUTES)).isoformat()
    with pytest.raises(Conflict) as twice:
        pvp.invite(service, inviter, listed["you"], uuid.uuid4())
    assert twice.value.code == "invitation_exists"
    [received] = pvp.invitations(service, invitee, None, 20)["items"]
    assert (received["sent"], received["deck_id"]) == (False, None)
    invitation_id = uuid.UUID(sent["id"])
    with pytest.raises(NotFound):  # only the invitee accepts or declines
        pvp.decline(service, inviter, invitation_id)
    with pytest.raises(NotFound):  # only the inviter cancels
        pvp.cancel(service, invitee, invitation_id)

    clock.set(T0 + timedelta(minutes=pvp.INVITATION_MINUTES))  # exactly at it: too late
    with pytest.raises(Conflict) as late:
        pvp.accept(service, invitee, invitation_id, uuid.uuid4())
    assert (late.value.code, late.value.details) == (
        "invitation_not_pending",
        {"status": "expired"},
    )
    assert pvp.sweep(service)[0] >= 1
    with battle_db.transaction() as tx:
        status = tx.session.execute(
            sa.select(pvp_invitations.c.status).where(pvp_invitations.c.id == invitation_id)
        ).scalar()
    assert status == "expired"

    again = pvp.invite(service, inviter, listed["you"], uuid.uuid4())  # no longer pending
    declined = pvp.decline(service, invitee, uuid.UUID(again["id"]))
    assert declined["status"] == "declined"
    third = pvp.invite(service, inviter, listed["you"], uuid.uuid4())
    assert pvp.cancel(service, inviter, uuid.UUID(third["id"]))["status"] == "cancelled"
    with pytest.raises(Conflict):
        pvp.decline(service, invitee, uuid.UUID(third["id"]))


def test_a_deleted_players_live_match_ends_with_the_opponents_win(service, battle_db, clock):
    leaver, stayer = uuid.uuid4(), uuid.uuid4()
    pvp.join_queue(service, leaver, uuid.uuid4())
    match_id = uuid.UUID(pvp.join_queue(service, stayer, uuid.uuid4())["match_id"])
    pvp.join_queue(service, uuid.uuid4(), uuid.uuid4())  # someone else waits, untouched
    with battle_db.transaction() as tx:
        purge_player(tx.session, leaver, clock.now(), end_shared=pvp.end_matches_of)
    with unit_of_work(battle_db) as uow:
        view = handlers.get_match(stayer, match_id, uow, clock, GAME)
        history = handlers.history(stayer, match_id, uow, clock, GAME)
    assert (view["status"], view["result"], view["finish_reason"]) == ("finished", "win", "left")
    assert view["opponent"]["name"] == history["opponent"] == "Deleted player"
    with battle_db.transaction() as tx:
        payloads = tx.session.execute(
            sa.select(plumbing.outbox.c.payload).where(
                plumbing.outbox.c.payload["data"]["match_id"].astext == str(match_id)
            )
        ).scalars()
        texts = [str(p) for p in payloads]
    assert texts and not [t for t in texts if str(leaver) in t]
    finished = [t for t in texts if "'left'" in t and "'win'" in t]
    assert finished, texts
