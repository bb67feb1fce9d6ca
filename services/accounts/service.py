"""The accounts nameko service: entrypoints only."""

from __future__ import annotations

from functools import partial
from typing import Any

from nameko.rpc import rpc

from services.accounts import handlers, orm
from services.accounts.repository import player_reader, unit_of_work
from services.accounts.schemas import PlayerSchema, SubjectSchema
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.health import HealthEndpoints
from shared.schemas import load

SUBJECT = SubjectSchema()
PLAYER = PlayerSchema()


class AccountsService(HealthEndpoints):
    name = "accounts"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()

    @rpc
    def me(self, sub: str) -> dict[str, Any]:
        """The player for an authenticated subject, registered on first call.

        ``{"sub": "auth0|123"}`` -> ``{"id": "...", "status": "active",
        "registered_at": "...", "registered_now": true}``
        """
        cmd = handlers.GetOrRegisterPlayer(**load(SUBJECT, {"sub": sub}))
        player, registered = handlers.me(
            cmd, partial(player_reader, self.db), partial(unit_of_work, self.db), self.clock
        )
        result: dict[str, Any] = PLAYER.dump(player)
        result["registered_now"] = registered
        return result
