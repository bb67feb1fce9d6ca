"""Deleting the Auth0 user: the Management API through auth0-python.

A machine-to-machine client (``AUTH0_MGMT_CLIENT_ID``/``SECRET``, granted
``delete:users``) gets a Management API token by the client-credentials grant
(``auth0.authentication.GetToken``); the token is kept until shortly before it
expires. ``auth0.management.Auth0`` then deletes the user. The SDK's own retries
are off (``max_retries=0``): a failure returns at once, and the saga retries with
its own persisted backoff instead of a worker sleeping.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from auth0.authentication import GetToken
from auth0.management import Auth0
from auth0.management.core.api_error import ApiError

from shared.config import Settings

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10.0  # ours: well inside the saga's step lease (60 s)
TOKEN_EARLY_RENEWAL_SECONDS = 60  # ours: renew a token this long before it expires


class IdentityProviderError(Exception):
    """The identity provider could not delete the user now; the saga retries later."""


class IdentityProvider(Protocol):
    def delete_user(self, sub: str) -> None:
        """Delete the user ``sub``; an unknown user counts as deleted.

        Raises IdentityProviderError when it could not be done now.
        """
        ...


class Auth0Identities:
    """Auth0's Management API (or the test suite's stand-in, over http)."""

    def __init__(
        self,
        domain: str,
        client_id: str,
        client_secret: str,
        protocol: str = "https",
        timeout: float = TIMEOUT_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._domain = domain
        self._client_id = client_id
        self._client_secret = client_secret
        self._protocol = protocol
        self._timeout = timeout
        self._monotonic = monotonic
        self._token: str | None = None
        self._token_valid_until = 0.0
        self._client: Auth0 | None = None

    @property
    def audience(self) -> str:
        return f"https://{self._domain}/api/v2/"

    def _access_token(self) -> str:
        if self._token is None or self._monotonic() >= self._token_valid_until:
            answer = GetToken(
                self._domain,
                self._client_id,
                self._client_secret,
                protocol=self._protocol,
                timeout=self._timeout,
            ).client_credentials(audience=self.audience)
            self._token = str(answer["access_token"])
            lifetime = float(answer.get("expires_in", 0))
            self._token_valid_until = self._monotonic() + lifetime - TOKEN_EARLY_RENEWAL_SECONDS
        return self._token

    def delete_user(self, sub: str) -> None:
        if self._client is None:
            self._client = Auth0(
                base_url=f"{self._protocol}://{self._domain}/api/v2",
                token=self._access_token,  # asked before each request
                timeout=self._timeout,
                max_retries=0,
            )
        try:
            self._client.users.delete(id=sub)
        except ApiError as exc:
            if exc.status_code == 404:  # already gone (a retry after a lost answer)
                return
            if exc.status_code == 401:  # revoked or expired early: fetch a new one next time
                self._token = None
            raise IdentityProviderError(f"Auth0 answered {exc.status_code}") from exc
        except Exception as exc:  # unreachable, timed out, token refused: retried later
            raise IdentityProviderError(f"Auth0 unreachable: {type(exc).__name__}") from exc


class DevelopmentIdentities:
    """With ``DEV_AUTH=1`` and no Management client, subjects come from the shipped
    development issuer: there is no Auth0 user to delete."""

    def delete_user(self, sub: str) -> None:
        log.info("development issuer: no Auth0 user to delete")


class UnconfiguredIdentities:
    def delete_user(self, sub: str) -> None:
        raise IdentityProviderError(
            "the Auth0 Management API is not configured (AUTH0_MGMT_CLIENT_ID/SECRET)"
        )


def identities_from_settings(settings: Settings) -> IdentityProvider:
    if settings.auth0_mgmt_client_id and settings.auth0_mgmt_client_secret:
        return Auth0Identities(
            settings.auth0_mgmt_domain or settings.auth0_domain,
            settings.auth0_mgmt_client_id,
            settings.auth0_mgmt_client_secret,
            protocol=settings.auth0_mgmt_protocol,
        )
    if settings.dev_auth:
        return DevelopmentIdentities()
    return UnconfiguredIdentities()
