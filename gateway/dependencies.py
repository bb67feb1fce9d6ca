"""nameko DependencyProviders of the gateway: token verification and settings."""

from __future__ import annotations

from typing import Any

from nameko.extensions import DependencyProvider

from gateway.auth import JwksCache, TokenVerifier, fetch_jwks_over_http
from gateway.devauth import DEV_ISSUER, dev_jwks
from gateway.ratelimit import Limit, RateLimits
from shared.config import Settings, settings_from_nameko_config


def build_verifier(settings: Settings) -> TokenVerifier:
    """Auth0 in production; the shipped development issuer only with DEV_AUTH=1."""
    if settings.dev_auth:
        keys = JwksCache(fetch=dev_jwks)
        issuer = DEV_ISSUER
    else:
        if not settings.auth0_domain:
            raise RuntimeError("set AUTH0_DOMAIN (or DEV_AUTH=1 for the development issuer)")
        issuer = f"https://{settings.auth0_domain}/"
        keys = JwksCache(fetch=fetch_jwks_over_http(f"{issuer}.well-known/jwks.json"))
    return TokenVerifier(issuer, settings.auth0_audience, keys, settings.auth0_roles_claim)


# Defaults (ours): generous for a person, tight for a script. Config keys override them.
DEFAULT_PLAYER_LIMIT = Limit(per_minute=120, burst=30)
DEFAULT_ADDRESS_LIMIT = Limit(per_minute=600, burst=100)


class RateLimiter(DependencyProvider):  # type: ignore[misc]
    """One set of buckets per gateway container, shared by its workers."""

    def setup(self) -> None:
        config = self.container.config
        self.limits = RateLimits(
            Limit(
                float(config.get("RATE_LIMIT_PLAYER_PER_MINUTE", DEFAULT_PLAYER_LIMIT.per_minute)),
                int(config.get("RATE_LIMIT_PLAYER_BURST", DEFAULT_PLAYER_LIMIT.burst)),
            ),
            Limit(
                float(
                    config.get("RATE_LIMIT_ADDRESS_PER_MINUTE", DEFAULT_ADDRESS_LIMIT.per_minute)
                ),
                int(config.get("RATE_LIMIT_ADDRESS_BURST", DEFAULT_ADDRESS_LIMIT.burst)),
            ),
        )

    def get_dependency(self, worker_ctx: Any) -> RateLimits:
        return self.limits


class Authenticator(DependencyProvider):  # type: ignore[misc]
    def setup(self) -> None:
        self.verifier = build_verifier(settings_from_nameko_config(self.container.config))

    def get_dependency(self, worker_ctx: Any) -> TokenVerifier:
        return self.verifier
