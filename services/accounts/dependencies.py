"""nameko DependencyProviders of accounts: the deletion policy and the identity provider."""

from __future__ import annotations

from functools import partial
from typing import Any

from nameko.extensions import DependencyProvider

from services.accounts.deletion import identity_digest
from services.accounts.deletion_handlers import DeletionPolicy
from services.accounts.identity import (
    Auth0Identities,
    IdentityProvider,
    identities_from_settings,
)
from shared.config import ConfigError, Settings, settings_from_nameko_config

# Development only: production refuses to start without DELETION_DIGEST_SECRET.
DEV_DIGEST_SECRET = "deckyard-development-deletion-digest"


def policy_from_settings(settings: Settings) -> DeletionPolicy:
    secret = settings.deletion_digest_secret
    if not secret:
        if settings.production:
            raise ConfigError("DELETION_DIGEST_SECRET must be set when DECKYARD_ENV=production")
        secret = DEV_DIGEST_SECRET
    return DeletionPolicy(
        reauth_seconds=settings.deletion_reauth_seconds,
        digest=partial(identity_digest, secret.encode("utf-8")),
    )


class DeletionPolicyProvider(DependencyProvider):  # type: ignore[misc]
    def setup(self) -> None:
        self.policy = policy_from_settings(settings_from_nameko_config(self.container.config))

    def get_dependency(self, worker_ctx: Any) -> DeletionPolicy:
        return self.policy


class Identities(DependencyProvider):  # type: ignore[misc]
    """Auth0's Management API; in production its client must be configured."""

    def setup(self) -> None:
        settings = settings_from_nameko_config(self.container.config)
        self.identities = identities_from_settings(settings)
        if settings.production and not isinstance(self.identities, Auth0Identities):
            raise ConfigError(
                "AUTH0_MGMT_CLIENT_ID and AUTH0_MGMT_CLIENT_SECRET must be set "
                "when DECKYARD_ENV=production"
            )

    def get_dependency(self, worker_ctx: Any) -> IdentityProvider:
        return self.identities
