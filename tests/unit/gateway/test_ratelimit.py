"""The gateway's token buckets, on a clock the test moves."""

import pytest

from gateway.clientaddress import ClientAddresses
from gateway.problems import response_for_exception
from gateway.ratelimit import AUTHOR_LIMIT, Limit, RateLimits, TokenBuckets
from shared.config import load_settings
from shared.errors import RateLimited


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_a_bucket_allows_its_burst_then_refuses_until_a_token_returns():
    clock = Clock()
    buckets = TokenBuckets(Limit(per_minute=60, burst=3), clock)
    assert [buckets.take("p") for _ in range(3)] == [None, None, None]
    assert buckets.take("p") == pytest.approx(1.0)
    clock.t += 0.999
    assert buckets.take("p") == pytest.approx(0.001, abs=1e-6)
    clock.t += 0.002
    assert buckets.take("p") is None


def test_buckets_are_per_key_and_refill_only_up_to_the_burst():
    clock = Clock()
    buckets = TokenBuckets(Limit(per_minute=60, burst=2), clock)
    assert buckets.take("a") is None and buckets.take("a") is None
    assert buckets.take("a") is not None
    assert buckets.take("b") is None  # another key is untouched
    clock.t += 3600
    assert [buckets.take("a") for _ in range(3)][:2] == [None, None]
    assert buckets.take("a") is not None


def test_forgotten_keys_start_full_and_memory_stays_bounded():
    clock = Clock()
    buckets = TokenBuckets(Limit(per_minute=1, burst=1), clock, max_keys=3)
    for key in "abcdef":
        assert buckets.take(key) is None
    assert len(buckets._buckets) == 3


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS"])
def test_reads_are_never_limited(method):
    limits = RateLimits(Limit(1, 1), Limit(1, 1), Clock())
    for _ in range(10):
        limits.check_unauthenticated(method, {"REMOTE_ADDR": "10.0.0.1"})
        limits.check_player(method, "auth0|a")


def test_a_refusal_is_429_with_retry_after_and_names_the_scope():
    limits = RateLimits(Limit(per_minute=1, burst=1), Limit(per_minute=600, burst=100), Clock())
    limits.check_player("POST", "auth0|a")
    with pytest.raises(RateLimited) as caught:
        limits.check_player("PUT", "auth0|a")
    limits.check_player("POST", "auth0|b")  # another player is not affected
    response = response_for_exception(caught.value)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "60"
    assert caught.value.details["scope"] == "player"


def test_the_address_limit_counts_every_unauthenticated_write_from_it():
    limits = RateLimits(Limit(600, 100), Limit(per_minute=1, burst=2), Clock())
    limits.check_unauthenticated("POST", {"REMOTE_ADDR": "10.0.0.1"})
    limits.check_unauthenticated("DELETE", {"REMOTE_ADDR": "10.0.0.1"})
    with pytest.raises(RateLimited) as caught:
        limits.check_unauthenticated("POST", {"REMOTE_ADDR": "10.0.0.1"})
    assert caught.value.details["scope"] == "address"
    limits.check_unauthenticated("POST", {"REMOTE_ADDR": "10.0.0.2"})


def test_the_two_budgets_never_mix():
    limits = RateLimits(Limit(per_minute=1, burst=1), Limit(per_minute=1, burst=1), Clock())
    with pytest.raises(RateLimited):
        for _ in range(2):
            limits.check_unauthenticated("POST", {"REMOTE_ADDR": "10.0.0.1"})
    limits.check_player("POST", "auth0|honest")  # its address's budget is spent: not its own


def test_an_authors_writes_spend_its_author_budget_never_its_players():
    limits = RateLimits(
        Limit(per_minute=1, burst=1), Limit(1, 1), Clock(), per_author=Limit(per_minute=1, burst=3)
    )
    for _ in range(3):
        limits.check_author("POST", "auth0|author")
    with pytest.raises(RateLimited) as caught:
        limits.check_author("PUT", "auth0|author")
    assert caught.value.details["scope"] == "author"
    limits.check_player("POST", "auth0|author")  # playing: the player budget, untouched
    limits.check_author("POST", "auth0|another-author")


def test_an_authors_budget_is_larger_than_a_players_by_default():
    settings = load_settings({"DATABASE_URL": "postgresql://x/y", "AMQP_URI": "amqp://x"})
    assert settings.rate_limit_author_burst > settings.rate_limit_player_burst
    assert settings.rate_limit_author_per_minute > settings.rate_limit_player_per_minute
    assert (
        Limit(settings.rate_limit_author_per_minute, settings.rate_limit_author_burst)
        == AUTHOR_LIMIT
    )


def test_behind_a_trusted_proxy_the_address_is_the_client_it_names():
    limits = RateLimits(
        Limit(600, 100), Limit(per_minute=1, burst=1), Clock(), ClientAddresses(hops=1)
    )
    behind = {"REMOTE_ADDR": "10.9.9.9", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    limits.check_unauthenticated("POST", behind)
    with pytest.raises(RateLimited):
        limits.check_unauthenticated(
            "POST", {**behind, "HTTP_X_FORWARDED_FOR": "1.1.1.1, 203.0.113.7"}
        )
    limits.check_unauthenticated("POST", {**behind, "HTTP_X_FORWARDED_FOR": "198.51.100.9"})


def test_a_limit_must_be_positive():
    with pytest.raises(ValueError):
        Limit(per_minute=0, burst=1)
    with pytest.raises(ValueError):
        Limit(per_minute=1, burst=0)
