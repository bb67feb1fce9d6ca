"""The accounts nameko service: entrypoints only."""

from __future__ import annotations

from typing import Any

from nameko.rpc import rpc

from services.accounts import handlers, orm
from services.accounts.repository import unit_of_work
from services.accounts.schemas import PlayerSchema, SubjectSchema
from shared.dependencies import ClockProvider, DatabaseProvider
from shared.health import HealthEndpoints
from shared.schemas import load


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
        cmd = handlers.GetOrRegisterPlayer(**load(SubjectSchema(), {"sub": sub}))
        with unit_of_work(self.db) as uow:
            player, registered = handlers.get_or_register_player(cmd, uow, self.clock)
        result: dict[str, Any] = PlayerSchema().dump(player)
        result["registered_now"] = registered
        return result
