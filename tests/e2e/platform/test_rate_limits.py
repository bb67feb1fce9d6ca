"""Mutating routes are rate limited: 429 with Retry-After.

A write with a valid token spends from its player's budget; a write whose token is
missing or refused spends from its client address's budget, the address taken from
the socket peer or, through TRUSTED_PROXY_HOPS proxies, from the header they write.
"""

import pytest

from deckyard.api_client import ApiClient
from tests.conftest import http_port
from tests.e2e.accounts.test_me import assert_problem
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


def post_deck_from(api, token, forwarded_for=None, header="X-Forwarded-For"):
    """A write as it reaches the gateway through a proxy that wrote ``forwarded_for``."""
    headers = {"Authorization": f"Bearer {token}"}
    if forwarded_for is not None:
        headers[header] = forwarded_for
    return api.request("POST", "/quest/decks", headers=headers, json={"name": "x", "cards": []})


def test_bad_tokens_spend_their_address_budget_never_an_honest_players(limited_api):
    # Issue 13: behind one ingress pod every player has the same peer address, and 20
    # writes with garbage tokens used to make the next honest player's write a 429.
    api = limited_api(RATE_LIMIT_ADDRESS_PER_MINUTE=SLOW, RATE_LIMIT_ADDRESS_BURST=3)
    statuses = [post_deck(api, "not-a-token").status_code for _ in range(20)]
    assert statuses == [401] * 3 + [429] * 17
    no_token = api.request("POST", "/quest/decks", json={"name": "x", "cards": []})
    assert assert_problem(no_token, 429, "rate_limited")["scope"] == "address"
    assert post_deck(api, api.token(random_sub())).status_code == 422  # not a 429


def test_behind_one_trusted_proxy_each_client_address_has_its_own_budget(limited_api):
    api = limited_api(
        TRUSTED_PROXY_HOPS=1, RATE_LIMIT_ADDRESS_PER_MINUTE=SLOW, RATE_LIMIT_ADDRESS_BURST=2
    )
    client = "203.0.113.7"
    assert [post_deck_from(api, "bad", client).status_code for _ in range(2)] == [401, 401]
    assert_problem(post_deck_from(api, "bad", client), 429, "rate_limited")
    # What the client wrote itself stands left of what the proxy appended: never trusted.
    for forged in ("198.51.100.1", "unknown", "garbage, 198.51.100.2", '"[::1]'):
        refused = post_deck_from(api, "bad", f"{forged}, {client}")
        assert_problem(refused, 429, "rate_limited")
    # Another client behind the same proxy (the same peer) has its own budget.
    assert post_deck_from(api, "bad", "198.51.100.9").status_code == 401


def test_the_rfc_7239_forwarded_header_when_the_proxy_writes_that_one(limited_api):
    api = limited_api(
        TRUSTED_PROXY_HOPS=1,
        TRUSTED_PROXY_HEADER="Forwarded",
        RATE_LIMIT_ADDRESS_PER_MINUTE=SLOW,
        RATE_LIMIT_ADDRESS_BURST=1,
    )
    client = 'for="[2001:db8:cafe::17]:4711";proto=https'
    assert post_deck_from(api, "bad", client, "Forwarded").status_code == 401
    forged = f'for=192.0.2.1, for="[2001:db8::1, {client}'
    assert_problem(post_deck_from(api, "bad", forged, "Forwarded"), 429, "rate_limited")
    # X-Forwarded-For is not the configured header: a client's copy of it changes nothing.
    both = {"Authorization": "Bearer bad", "Forwarded": client, "X-Forwarded-For": "192.0.2.99"}
    also_xff = api.request("POST", "/quest/decks", headers=both, json={"name": "x", "cards": []})
    assert_problem(also_xff, 429, "rate_limited")
    assert post_deck_from(api, "bad", "for=192.0.2.60", "Forwarded").status_code == 401


def test_without_trusted_proxies_a_forwarded_header_is_ignored(limited_api):
    api = limited_api(RATE_LIMIT_ADDRESS_PER_MINUTE=SLOW, RATE_LIMIT_ADDRESS_BURST=2)
    answers = [post_deck_from(api, "bad", f"192.0.2.{n}").status_code for n in range(3)]
    assert answers == [401, 401, 429]  # one socket peer, one budget, whatever the header says


def draft(api, token):
    """An authoring write (refused 422 by the gateway's own check of its body)."""
    return api.request(
        "POST", "/authoring/content", headers={"Authorization": f"Bearer {token}"}, json={}
    )


def test_an_authors_writes_spend_its_author_budget_not_its_players(limited_api):
    # Issue 30: Authors work at volume; their writes as Authors have a budget of their
    # own, larger than a player's, and leave the player budget for play.
    api = limited_api(
        RATE_LIMIT_PLAYER_PER_MINUTE=SLOW,
        RATE_LIMIT_PLAYER_BURST=2,
        RATE_LIMIT_AUTHOR_PER_MINUTE=SLOW,
        RATE_LIMIT_AUTHOR_BURST=5,
    )
    author = api.token(random_sub("author"), roles=["author"])
    assert [draft(api, author).status_code for _ in range(5)] == [422] * 5
    assert assert_problem(draft(api, author), 429, "rate_limited")["scope"] == "author"
    assert [post_deck(api, author).status_code for _ in range(2)] == [422, 422]  # playing
    assert assert_problem(post_deck(api, author), 429, "rate_limited")["scope"] == "player"
    # A player on an authoring route spends its player budget before the 403.
    player = api.token(random_sub())
    assert [draft(api, player).status_code for _ in range(2)] == [403, 403]
    assert assert_problem(draft(api, player), 429, "rate_limited")["scope"] == "player"
