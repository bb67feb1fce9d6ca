"""What every route mixin of the gateway shares: who is calling, and the RPC caller.

``GatewayService`` provides ``_identity`` and ``_active_player``; the mixins
(cards, battles, account) only declare them so that each module reads alone.
"""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Request

from gateway.auth import Identity
from gateway.players import PlayerLeases
from gateway.rpc import Services


class PlayerRoutes:
    services: Services
    players: PlayerLeases

    def _identity(self, request: Request) -> Identity:
        raise NotImplementedError  # provided by GatewayService

    def _active_player(self, identity: Identity) -> dict[str, Any]:
        raise NotImplementedError  # provided by GatewayService

    def _player_id(self, request: Request) -> str:
        """The caller's player id, from the verified token; locked accounts are refused."""
        return str(self._active_player(self._identity(request))["id"])
