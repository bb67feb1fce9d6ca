"""The battle nameko service: entrypoints only."""

from __future__ import annotations

from services.battle import orm
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.health import HealthEndpoints


class BattleService(HealthEndpoints):
    name = "battle"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
