"""Deleting your account through the public API: DELETE /me and GET /me/deletion.

Every service and the gateway run for real; the Auth0 Management API is the test
suite's stand-in, and accounts' clock is a FixedClock so a retry is reached by
moving time, not by waiting.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import httpx
import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from deckyard.api_client import ApiClient
from services.accounts.deletion import CONFIRMATION_PHRASE
from services.accounts.orm import deletion_sagas
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from tests.auth0_standin import Auth0StandIn
from tests.conftest import http_port, status_port
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

CONFIRMED = {"confirm": CONFIRMATION_PHRASE}
LEASE = {"PLAYER_LEASE_SECONDS": 3.0}  # longer than the test takes to reach its check


@pytest.fixture
def clock():
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def auth0():
    with Auth0StandIn() as standin:
        yield standin


@pytest.fixture
def platform(start_service, settings, clock, auth0):
    """As tests/e2e/conftest.py's, with accounts on the Auth0 stand-in and a FixedClock."""
    containers = {}
    for name in SERVICE_NAMES:
        if name == "accounts":
            containers[name] = start_service(
                name, settings_override=auth0.settings(settings), replacements={"clock": clock}
            )
        else:
            containers[name] = start_service(name)
    containers["gateway"] = start_service("gateway", MAX_BODY_BYTES=settings.max_body_bytes)
    return containers


def token(api, clock, sub, logged_in_ago=0, **claims):
    now = clock.now().timestamp()
    extra = {"auth_time": int(now - logged_in_ago), **claims}
    return api.token(sub, now=now, extra_claims=extra)


def delete_me(api, bearer, body=CONFIRMED):
    return api.request("DELETE", "/me", headers={"Authorization": f"Bearer {bearer}"}, json=body)


def code(response):
    assert response.headers["Content-Type"] == "application/problem+json", response.text
    return response.json()["code"]


def failures_recorded(settings, deletion_id):
    """The saga's failed attempts at its current step, as accounts persisted them."""
    engine = sa.create_engine(settings.database_url_for("accounts"))
    with engine.connect() as conn:
        attempts = conn.execute(
            sa.select(deletion_sagas.c.attempts).where(
                deletion_sagas.c.id == uuid.UUID(deletion_id)
            )
        ).scalar_one_or_none()
    engine.dispose()
    return attempts


def test_deleting_your_account_locks_it_at_once_and_completes_after_auth0_recovers(
    api, platform, settings, clock, auth0
):
    sub = random_sub("leaving")
    fresh = token(api, clock, sub)
    assert api.get("/me", token=fresh).status_code == 200
    auth0.fail_next(1)  # Auth0 is down for the first try: the account stays locked

    started = delete_me(api, fresh)
    assert started.status_code == 202, started.text
    deletion = started.json()
    assert deletion["status"] in ("purging_data", "deleting_identity")
    assert deletion["completedAt"] is None and deletion["identity"] == "pending"

    # Locked at once: every player request is refused.
    for method, path, body in (
        ("GET", "/me", None),
        ("GET", "/quest/collection", None),
        ("POST", "/quest/starter", {"affinity": "Wit"}),
        ("GET", "/me/progression", None),
    ):
        refused = api.request(method, path, headers={"Authorization": f"Bearer {fresh}"}, json=body)
        assert refused.status_code == 403, (path, refused.text)
        assert code(refused) == "account_locked"

    # The same request again is the same deletion.
    again = delete_me(api, fresh)
    assert again.status_code == 202 and again.json()["id"] == deletion["id"]

    wait_for(lambda: failures_recorded(settings, deletion["id"]) == 1, timeout=20)
    view = api.get("/me/deletion", token=fresh).json()
    assert view["status"] == "deleting_identity"
    assert set(view["services"].values()) == {"purged"}

    clock.advance(seconds=30)  # the first retry is due
    with entrypoint_hook(platform["accounts"], "sweep_deletions") as sweep:
        sweep()

    def completed():
        response = api.get("/me/deletion", token=fresh)
        return response.json() if response.json()["status"] == "completed" else None

    done = wait_for(completed, timeout=20)
    assert done["id"] == deletion["id"] and done["identity"] == "deleted"
    assert auth0.deleted == [sub]

    gone = api.get("/me", token=fresh)  # the old token cannot bring the account back
    assert gone.status_code == 403 and code(gone) == "account_deleted"
    asked_again = delete_me(api, fresh)
    assert asked_again.status_code == 200 and asked_again.json()["status"] == "completed"


def test_once_one_gateway_answers_the_deletion_every_gateway_refuses_the_account(
    platform, start_service, settings, clock
):
    """Gateways lease "active" from accounts (gateway/players.py). Two replicas with a
    3 s lease, trusted for 300 s while caught up with the push stream, both hold one
    when the deletion arrives at the first: the second must still refuse the very next
    request after the first has answered (the deletion takes longer than the short
    lease, so only the long one, dropped by the revocation, could let it through)."""
    gateways = [start_service("gateway", **LEASE) for _ in range(2)]
    replicas = [ApiClient(f"http://127.0.0.1:{http_port(g)}", settings) for g in gateways]
    here, elsewhere = replicas
    sub = random_sub("replicas")
    fresh = token(here, clock, sub)
    for replica in replicas:
        assert replica.get("/me", token=fresh).status_code == 200
        assert replica.get("/quest/collection", token=fresh).status_code == 200
    wait_for(lambda: stream_lag(gateways[1]) < LEASE["PLAYER_LEASE_SECONDS"], timeout=20)

    assert delete_me(here, fresh).status_code == 202

    for path in ("/me", "/quest/collection"):
        refused = elsewhere.get(path, token=fresh)  # locked, or already deleted (3 s on)
        assert refused.status_code == 403, refused.text
        assert code(refused) in ("account_locked", "account_deleted")


def stream_lag(gateway):
    """``deckyard_push_stream_lag_seconds`` of a gateway (its status port's /metrics)."""
    text = httpx.get(f"http://127.0.0.1:{status_port(gateway)}/metrics").text
    for line in text.splitlines():
        if line.startswith("deckyard_push_stream_lag_seconds "):
            return float(line.split()[1])
    return float("inf")


def test_deletion_without_confirmation_or_a_recent_login_is_refused_and_changes_nothing(api, clock):
    sub = random_sub("careful")
    fresh = token(api, clock, sub)
    api.get("/me", token=fresh)

    for body in ({}, {"confirm": "yes"}, {"confirm": "delete my account"}):
        refused = delete_me(api, fresh, body)
        assert refused.status_code == 422 and code(refused) == "confirmation_required"
    not_json = api.request("DELETE", "/me", headers={"Authorization": f"Bearer {fresh}"})
    assert not_json.status_code == 400

    for stale in (
        token(api, clock, sub, logged_in_ago=301),  # DELETION_REAUTH_SECONDS is 300
        token(api, clock, sub, auth_time=None),  # no auth_time at all
    ):
        refused = delete_me(api, stale)
        assert refused.status_code == 403 and code(refused) == "reauthentication_required"
        assert refused.json()["maxAge"] == 300

    assert delete_me(api, "not-a-token").status_code == 401
    me = api.get("/me", token=fresh)
    assert me.status_code == 200 and me.json()["status"] == "active"
    assert api.get("/me/deletion", token=fresh).status_code == 404


def test_the_route_deletes_only_the_caller_whatever_id_is_sent(api, clock, auth0):
    alice, bob = random_sub("alice"), random_sub("bob")
    alice_token, bob_token = token(api, clock, alice), token(api, clock, bob)
    api.get("/me", token=alice_token)
    bob_id = api.get("/me", token=bob_token).json()["id"]

    with_id = delete_me(api, alice_token, {**CONFIRMED, "playerId": bob_id})
    assert with_id.status_code == 422 and code(with_id) == "validation_failed"
    other_path = api.request(
        "DELETE",
        f"/me/{bob_id}",
        headers={"Authorization": f"Bearer {alice_token}"},
        json=CONFIRMED,
    )
    assert other_path.status_code == 404
    assert api.get("/me", token=bob_token).json()["status"] == "active"

    assert delete_me(api, alice_token).status_code == 202
    wait_for(lambda: auth0.deleted == [alice], timeout=20)
    bob_now = api.get("/me", token=bob_token)
    assert bob_now.status_code == 200 and bob_now.json()["status"] == "active"
    assert bob_now.json()["id"] == bob_id
    assert api.get("/me/deletion", token=bob_token).status_code == 404
    assert uuid.UUID(bob_id)
