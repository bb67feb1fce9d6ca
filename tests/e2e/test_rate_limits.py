"""Mutating routes are rate limited per player and per address: 429 with Retry-After."""

import pytest

from tests.conftest import http_port
from tests.e2e.api_client import ApiClient
from tests.e2e.test_me import assert_problem
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

SLOW = 1 / 60  # one token an hour: nothing refills during the test


@pytest.fixture
def limited_api(start_service, settings):
    def start(**limits):
        for name in ("accounts", "cards"):
            start_service(name)
        gateway = start_service("gateway", **limits)
        return ApiClient(f"http://127.0.0.1:{http_port(gateway)}", settings)

    return start


def post_deck(api, token):
    return api.request(
        "POST",
        "/quest/decks",
        headers={"Authorization": f"Bearer {token}"},
        json={"name": "x", "cards": []},
    )


def test_a_player_over_the_limit_gets_429_with_retry_after(limited_api):
    api = limited_api(RATE_LIMIT_PLAYER_PER_MINUTE=SLOW, RATE_LIMIT_PLAYER_BURST=2)
    token = api.token(random_sub())
    assert [post_deck(api, token).status_code for _ in range(2)] == [422, 422]
    refused = post_deck(api, token)
    body = assert_problem(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) >= 1
    assert body["scope"] == "player"
    assert post_deck(api, api.token(random_sub())).status_code == 422  # someone else
    assert api.get("/quest/decks", token=token).status_code == 200  # reads are not limited


def test_an_address_over_the_limit_gets_429_even_with_bad_tokens(limited_api):
    api = limited_api(RATE_LIMIT_ADDRESS_PER_MINUTE=SLOW, RATE_LIMIT_ADDRESS_BURST=3)
    statuses = [post_deck(api, "not-a-token").status_code for _ in range(3)]
    assert statuses == [401, 401, 401]
    assert_problem(post_deck(api, api.token(random_sub())), 429, "rate_limited")
