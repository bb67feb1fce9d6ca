"""What every route mixin shares: who is calling, and the RPC caller.

``Caller`` verifies the token, spends from the rate limits, and finds the caller's
active player (leased, gateway/players.py); the route mixins derive from it, so each
module reads alone and ``GatewayService`` only wires the dependencies.
"""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Request, Response

from gateway.auth import Identity, TokenVerifier, bearer_token
from gateway.players import PlayerLeases
from gateway.ratelimit import RateLimits
from gateway.rpc import Services
from shared.errors import Forbidden, Unauthorized

WRITE_ERRORS = (400, 404, 409, 413, 422)


class Caller:
    auth: TokenVerifier
    limits: RateLimits
    players: PlayerLeases
    services: Services

    def _identity(self, request: Request) -> Identity:
        """The verified caller. A mutating request spends from its player's budget, or,
        when its token is missing or refused, from its client address's budget, so bad
        tokens never spend an honest player's (gateway/ratelimit.py): 429 over either."""
        try:
            token = bearer_token(request.headers.get("Authorization"))
            identity: Identity = self.auth.verify(token)
        except Unauthorized:
            self.limits.check_unauthenticated(request.method, request.environ)
            raise
        self.limits.check_player(request.method, identity.sub)
        return identity

    def _active_player(self, identity: Identity) -> dict[str, Any]:
        """The caller's player, registered on first sight; a locked account is refused.
        An active answer is leased for a second (gateway/players.py): no RPC then."""
        player: dict[str, Any] = self.players.active_player(
            identity.sub, lambda: self.services.call("accounts", "me", sub=identity.sub)
        )
        if player["status"] != "active":
            raise Forbidden("account_locked", "this account is locked and cannot be used")
        return player

    def _player_id(self, request: Request) -> str:
        """The caller's player id, from the verified token; locked accounts are refused."""
        return str(self._active_player(self._identity(request))["id"])

    def _author(self, request: Request) -> Identity:
        """An active player whose token grants the Author role; anyone else learns nothing."""
        identity = self._identity(request)
        self._active_player(identity)
        if not identity.is_author:
            raise Forbidden("author_role_required", "only Authors may use authoring routes")
        return identity


def no_content() -> Response:
    """204: no body, so no Content-Type either (werkzeug would add text/plain)."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response
