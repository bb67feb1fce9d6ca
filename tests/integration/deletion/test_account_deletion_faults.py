"""Account deletion when things go wrong: a service down, accounts restarted, Auth0
unavailable, the same request twice, and requests that must change nothing."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from services.accounts import orm as accounts_orm
from services.accounts.deletion import RETRY_BASE
from services.battle import orm as battle_orm
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from shared.errors import Forbidden, InvalidInput, NotFound
from tests.auth0_standin import Auth0StandIn
from tests.helpers import wait_for
from tests.integration.deletion.test_account_deletion import (
    NOW,
    completed,
    cpu_match,
    request,
    status_of,
    sweep,
)
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration


@pytest.fixture
def clock():
    return FixedClock(NOW)


@pytest.fixture
def auth0():
    with Auth0StandIn() as standin:
        yield standin


@pytest.fixture
def start_platform(start_service, settings, clock, auth0):
    def start(*names):
        started = {}
        for name in names or SERVICE_NAMES:
            override = auth0.settings(settings) if name == "accounts" else None
            started[name] = start_service(
                name, settings_override=override, replacements={"clock": clock}
            )
        return started

    return start


@pytest.fixture
def engines(settings):
    made = {name: sa.create_engine(settings.database_url_for(name)) for name in SERVICE_NAMES}
    yield made
    for engine in made.values():
        engine.dispose()


def answered(rpc, sub, *services):
    """Wait until exactly ``services`` have answered; the deletion's view."""

    def check():
        view = status_of(rpc, sub)
        purged = {s for s, state in view["services"].items() if state == "purged"}
        return view if purged == set(services) else None

    return wait_for(check, timeout=20)


def requests_sent(engines, deletion_id):
    """How many AccountDeletionRequested for a deletion accounts' outbox holds."""
    outbox = accounts_orm.plumbing.outbox
    with engines["accounts"].connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).where(
                outbox.c.routing_key == "AccountDeletionRequested",
                outbox.c.payload["data"]["deletion_id"].astext == deletion_id,
            )
        ).scalar_one()


def attempts_of(engines, deletion_id):
    sagas = accounts_orm.deletion_sagas
    with engines["accounts"].connect() as conn:
        return conn.execute(
            sa.select(sagas.c.attempts).where(sagas.c.id == uuid.UUID(deletion_id))
        ).scalar_one_or_none()


def sagas_of(engines, player_id):
    sagas = accounts_orm.deletion_sagas
    with engines["accounts"].connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).where(sagas.c.player_id == uuid.UUID(player_id))
        ).scalar_one()


def matches_of(engines, player_id):
    with engines["battle"].connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).where(battle_orm.matches.c.player_id == player_id)
        ).scalar_one()


# -- a service down, accounts restarted ------------------------------------------------------


def test_a_service_stopped_during_the_saga_is_asked_again_and_completes_when_back(
    start_platform, rpc, engines, auth0, clock
):
    containers = start_platform()
    sub = random_sub("battle-down")
    player_id = uuid.UUID(rpc.accounts.me(sub=sub)["id"])
    cpu_match(engines, player_id)
    containers["battle"].stop()

    deletion_id = request(rpc, sub, clock)["deletion"]["id"]
    view = answered(rpc, sub, "cards", "challenge", "authoring")

    assert view["status"] == "purging_data" and view["services"]["battle"] == "pending"
    assert rpc.accounts.me(sub=sub)["status"] == "locked"
    assert auth0.calls == []
    assert matches_of(engines, player_id) == 1

    clock.advance(seconds=RETRY_BASE.total_seconds())
    sweep(containers["accounts"])  # (or the timer, whichever comes first)
    wait_for(lambda: requests_sent(engines, deletion_id) == 2)

    start_platform("battle")
    done = completed(rpc, sub)
    assert done["id"] == deletion_id
    assert matches_of(engines, player_id) == 0
    assert auth0.deleted == [sub]


def test_accounts_restarted_in_the_middle_loses_no_step(start_platform, rpc, engines, auth0, clock):
    containers = start_platform()
    sub = random_sub("accounts-restart")
    rpc.accounts.me(sub=sub)
    containers["cards"].stop()
    deletion_id = request(rpc, sub, clock)["deletion"]["id"]
    answered(rpc, sub, "battle", "challenge", "authoring")

    containers["accounts"].kill()  # as a crash: nothing is finished on the way out
    start_platform("cards")  # cards answers while accounts is away: the answer waits
    start_platform("accounts")

    assert completed(rpc, sub)["id"] == deletion_id
    assert auth0.deleted == [sub]


# -- Auth0 unavailable -----------------------------------------------------------------------


def test_auth0_answering_503_twice_is_retried_with_backoff_then_done(
    start_platform, rpc, engines, auth0, clock
):
    auth0.fail_next(2)
    containers = start_platform()
    sub = random_sub("auth0-down")
    rpc.accounts.me(sub=sub)

    deletion_id = request(rpc, sub, clock)["deletion"]["id"]
    wait_for(lambda: attempts_of(engines, deletion_id) == 1)  # the failure is persisted
    assert len(auth0.calls) == 1
    assert status_of(rpc, sub)["status"] == "deleting_identity"
    assert rpc.accounts.me(sub=sub)["status"] == "locked"  # failures leave it locked

    sweep(containers["accounts"])  # not due: Auth0 is not asked again yet
    assert len(auth0.calls) == 1

    clock.advance(seconds=30)
    sweep(containers["accounts"])
    wait_for(lambda: attempts_of(engines, deletion_id) == 2)
    assert len(auth0.calls) == 2
    clock.advance(seconds=59)
    sweep(containers["accounts"])
    assert len(auth0.calls) == 2  # the backoff doubled: 60 s

    clock.advance(seconds=1)
    sweep(containers["accounts"])
    completed(rpc, sub)
    assert [call.status for call in auth0.calls] == [503, 503, 204]
    assert auth0.deleted == [sub]


# -- the same request twice ------------------------------------------------------------------


def test_the_same_request_sent_twice_at_once_is_one_deletion(
    start_platform, rpc, engines, auth0, clock
):
    containers = start_platform()
    sub = random_sub("twice")
    player_id = rpc.accounts.me(sub=sub)["id"]
    containers["battle"].stop()  # keeps the deletion open to look at it

    pending = [
        rpc.accounts.request_deletion.call_async(
            sub=sub, auth_time=int(clock.now().timestamp()), confirm="DELETE MY ACCOUNT"
        )
        for _ in range(5)
    ]
    answers = [reply.result() for reply in pending]
    again = request(rpc, sub, clock)

    assert sorted(a["created"] for a in answers) == [False, False, False, False, True]
    assert {a["deletion"]["id"] for a in [*answers, again]} == {again["deletion"]["id"]}
    assert sagas_of(engines, player_id) == 1
    assert requests_sent(engines, again["deletion"]["id"]) == 1

    start_platform("battle")
    completed(rpc, sub)
    assert auth0.deleted == [sub]


# -- refusals that change nothing --------------------------------------------------------------


@pytest.mark.parametrize("confirm", [None, "", "delete my account"])
def test_without_the_confirmation_nothing_changes(start_platform, rpc, clock, confirm):
    start_platform("accounts")
    sub = random_sub("unconfirmed")
    rpc.accounts.me(sub=sub)

    with pytest.raises(InvalidInput) as refused:
        request(rpc, sub, clock, confirm=confirm)

    assert refused.value.code == "confirmation_required"
    assert rpc.accounts.me(sub=sub)["status"] == "active"
    with pytest.raises(NotFound):
        status_of(rpc, sub)


@pytest.mark.parametrize("age", [301, 86400])
def test_a_stale_login_changes_nothing(start_platform, rpc, clock, age):
    start_platform("accounts")
    sub = random_sub("stale")
    rpc.accounts.me(sub=sub)

    with pytest.raises(Forbidden) as refused:
        request(rpc, sub, clock, auth_time=int(clock.now().timestamp()) - age)

    assert refused.value.code == "reauthentication_required"
    assert rpc.accounts.me(sub=sub)["status"] == "active"
    with pytest.raises(NotFound):
        status_of(rpc, sub)
