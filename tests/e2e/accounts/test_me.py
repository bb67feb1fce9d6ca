"""GET /me through the gateway, with real tokens, services, database and broker."""

import time

import eventlet
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from gateway.devauth import DEV_KEY_ID
from tests.helpers import collection_of, wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e


def assert_problem(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["detail"]
    return body


def test_first_me_registers_the_player_and_cards_creates_the_collection(api, rpc):
    sub = random_sub()
    first = api.me(sub)
    assert first.status_code == 200, first.text
    player = first.json()
    assert player["registeredNow"] is True
    assert player["roles"] == ["player"]
    assert player["status"] == "active"

    collection = wait_for(lambda: collection_of(rpc, player["id"]))
    assert collection["player_id"] == player["id"]

    second = api.me(sub)
    assert second.status_code == 200
    assert second.json()["id"] == player["id"]
    assert second.json()["registeredNow"] is False


def test_author_role_comes_from_the_token(api):
    response = api.me(random_sub("author"), roles=["author"])
    assert response.status_code == 200
    assert response.json()["roles"] == ["author", "player"]


def test_concurrent_first_calls_register_exactly_one_player(api):
    sub = random_sub()
    token = api.token(sub)
    pool = eventlet.GreenPool(8)
    responses = list(pool.imap(lambda _: api.get("/me", token=token), range(8)))
    assert {r.status_code for r in responses} == {200}, [r.text for r in responses]
    assert len({r.json()["id"] for r in responses}) == 1
    assert sum(r.json()["registeredNow"] for r in responses) == 1


def test_missing_token_is_401(api):
    assert_problem(api.get("/me"), 401, "missing_token")


def test_forged_token_is_401(api):
    forged_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token = api.token(random_sub(), key=forged_key, kid=DEV_KEY_ID)
    assert_problem(api.get("/me", token=token), 401, "invalid_token")


def test_expired_token_is_401(api):
    token = api.token(random_sub(), now=time.time() - 7200, ttl_seconds=60)
    assert_problem(api.get("/me", token=token), 401, "token_expired")


def test_token_for_another_audience_is_401(api):
    from gateway.devauth import mint_token

    token = mint_token(random_sub(), audience="https://someone-else.example.com")
    assert_problem(api.get("/me", token=token), 401, "invalid_audience")


def test_garbage_token_is_401(api):
    assert_problem(api.get("/me", token="not.a.jwt"), 401, "invalid_token")


def test_refused_tokens_register_nobody(api, rpc):
    sub = random_sub()
    api.get("/me", token=api.token(sub, now=time.time() - 7200, ttl_seconds=60))
    first_valid = api.me(sub)
    assert first_valid.json()["registeredNow"] is True


def test_oversized_body_is_413_and_registers_nobody(api):
    sub = random_sub()
    response = api.request(
        "GET",
        "/me",
        headers={"Authorization": f"Bearer {api.token(sub)}"},
        data=b"x" * (api.settings.max_body_bytes + 1),
    )
    assert_problem(response, 413, "payload_too_large")
    assert api.me(sub).json()["registeredNow"] is True


def test_unknown_route_and_wrong_method_are_problems(api):
    assert_problem(api.get("/no/such/route"), 404, "route_not_found")
    response = api.request("DELETE", "/health")
    assert_problem(response, 405, "method_not_allowed")


def test_locked_account_is_refused(unleased_api, settings):
    api = unleased_api
    import sqlalchemy as sa

    from services.accounts.orm import players

    sub = random_sub()
    assert api.me(sub).status_code == 200
    engine = sa.create_engine(settings.database_url_for("accounts"))
    with engine.begin() as conn:
        conn.execute(sa.update(players).where(players.c.auth0_sub == sub).values(status="locked"))
    engine.dispose()
    assert_problem(api.me(sub), 403, "account_locked")


def test_health_ready_openapi_and_docs(api):
    assert api.get("/health").json() == {"status": "alive"}
    ready = api.get("/ready")
    assert ready.status_code == 200, ready.text
    assert ready.json() == {"ready": True, "broker": "ok"}
    spec = api.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    assert "/me" in spec["paths"]
    docs = api.get("/docs")
    assert docs.status_code == 200 and "/me" in docs.text


def test_dev_jwks_is_served_with_dev_auth(api):
    keys = api.get("/dev/jwks.json").json()["keys"]
    assert [k["kid"] for k in keys] == [DEV_KEY_ID]
    assert all("d" not in k for k in keys), "the private exponent must never be served"
