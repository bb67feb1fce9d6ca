"""nameko DependencyProviders of the gateway: token verification, rate limits, player leases."""

from __future__ import annotations

from typing import Any

from nameko.extensions import DependencyProvider

from gateway.auth import JwksCache, TokenVerifier, fetch_jwks_over_http
from gateway.clientaddress import ClientAddresses
from gateway.devauth import DEV_ISSUER, dev_jwks
from gateway.players import PlayerLeases
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


class RateLimiter(DependencyProvider):  # type: ignore[misc]
    """One set of buckets per gateway container, shared by its workers.

    The limits and the trusted proxies come from the settings (environment); config
    keys of the same names override them (tests start a gateway with their own).
    """

    def setup(self) -> None:
        config = self.container.config
        settings = settings_from_nameko_config(config)

        def limit(scope: str, per_minute: float, burst: int) -> Limit:
            return Limit(
                float(config.get(f"RATE_LIMIT_{scope}_PER_MINUTE", per_minute)),
                int(config.get(f"RATE_LIMIT_{scope}_BURST", burst)),
            )

        addresses = ClientAddresses(
            int(config.get("TRUSTED_PROXY_HOPS", settings.trusted_proxy_hops)),
            str(config.get("TRUSTED_PROXY_HEADER", settings.trusted_proxy_header)),
        )
        self.limits = RateLimits(
            limit(
                "PLAYER", settings.rate_limit_player_per_minute, settings.rate_limit_player_burst
            ),
            limit(
                "ADDRESS",
                settings.rate_limit_address_per_minute,
                settings.rate_limit_address_burst,
            ),
            addresses=addresses,
        )

    def get_dependency(self, worker_ctx: Any) -> RateLimits:
        return self.limits


class Authenticator(DependencyProvider):  # type: ignore[misc]
    def setup(self) -> None:
        self.verifier = build_verifier(settings_from_nameko_config(self.container.config))

    def get_dependency(self, worker_ctx: Any) -> TokenVerifier:
        return self.verifier


class ActivePlayers(DependencyProvider):  # type: ignore[misc]
    """The gateway container's leases on active players, shared by its workers
    (gateway/players.py). ``PLAYER_LEASE_SECONDS`` in the config overrides the
    settings (tests start gateways with their own lease)."""

    def setup(self) -> None:
        config = self.container.config
        settings = settings_from_nameko_config(config)
        lease = float(config.get("PLAYER_LEASE_SECONDS", settings.player_lease_seconds))
        self.leases = PlayerLeases(lease)

    def get_dependency(self, worker_ctx: Any) -> PlayerLeases:
        return self.leases
