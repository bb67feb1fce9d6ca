"""The authoring nameko service: entrypoints only."""

from __future__ import annotations

from services.authoring import orm
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.health import HealthEndpoints


class AuthoringService(HealthEndpoints):
    name = "authoring"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
