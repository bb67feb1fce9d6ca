"""The challenge nameko service: entrypoints only."""

from __future__ import annotations

from services.challenge import orm
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.health import HealthEndpoints


class ChallengeService(HealthEndpoints):
    name = "challenge"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
