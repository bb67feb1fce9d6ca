"""Deleting the Auth0 user with auth0-python, against the test suite's stand-in server."""

from __future__ import annotations

import pytest

from services.accounts.identity import (
    Auth0Identities,
    DevelopmentIdentities,
    IdentityProviderError,
    UnconfiguredIdentities,
    identities_from_settings,
)
from shared.config import load_settings
from tests.auth0_standin import Auth0StandIn


@pytest.fixture
def auth0():
    with Auth0StandIn() as standin:
        yield standin


def identities(auth0):
    return identities_from_settings(auth0.settings(load_settings({})))


def test_a_user_is_deleted_with_a_client_credentials_token(auth0):
    provider = identities(auth0)
    assert isinstance(provider, Auth0Identities)

    provider.delete_user("auth0|abc 123")
    provider.delete_user("google-oauth2|42")

    assert auth0.deleted == ["auth0|abc 123", "google-oauth2|42"]
    assert auth0.tokens_issued == 1  # the token is kept until it nears its expiry


def test_auth0_unavailable_is_an_error_to_retry_and_deletes_nothing(auth0):
    auth0.fail_next(1)
    provider = identities(auth0)

    with pytest.raises(IdentityProviderError, match="503"):
        provider.delete_user("auth0|abc")
    provider.delete_user("auth0|abc")

    assert [(c.user_id, c.status) for c in auth0.calls] == [("auth0|abc", 503), ("auth0|abc", 204)]


def test_an_unreachable_tenant_is_an_error_to_retry(auth0):
    provider = identities(auth0)
    auth0.stop()

    with pytest.raises(IdentityProviderError, match="unreachable"):
        provider.delete_user("auth0|abc")


def test_wrong_client_credentials_are_an_error_to_retry(auth0):
    provider = identities(auth0)
    auth0.client_secret = "rotated"  # the tenant's secret changed; ours did not

    with pytest.raises(IdentityProviderError):
        provider.delete_user("auth0|abc")
    assert auth0.calls == []


def test_which_provider_the_settings_choose():
    assert isinstance(
        identities_from_settings(load_settings({"DEV_AUTH": "1"})), DevelopmentIdentities
    )
    assert isinstance(identities_from_settings(load_settings({})), UnconfiguredIdentities)
    with pytest.raises(IdentityProviderError):
        UnconfiguredIdentities().delete_user("auth0|abc")
    production = load_settings(
        {
            "DECKYARD_ENV": "production",
            "DATABASE_URL": "postgresql://app:pw@db/postgres",
            "AMQP_URI": "amqp://app:pw@mq/",
            "AUTH0_DOMAIN": "tenant.eu.auth0.com",
            "AUTH0_MGMT_CLIENT_ID": "id",
            "AUTH0_MGMT_CLIENT_SECRET": "secret",
        }
    )
    provider = identities_from_settings(production)
    assert isinstance(provider, Auth0Identities)
    assert provider.audience == "https://tenant.eu.auth0.com/api/v2/"
    assert "secret" not in repr(production)
