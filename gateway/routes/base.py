"""What every route mixin shares: who is calling, and the RPC caller.

``Caller`` verifies the token, spends from the rate limits, and finds the caller's
active player (leased, gateway/players.py); the route mixins derive from it, so each
module reads alone and ``Gateway`` (gateway/app.py) only wires the dependencies.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.auth import Identity, TokenVerifier, bearer_token
from gateway.clientaddress import request_environ
from gateway.players import PlayerLeases
from gateway.ratelimit import RateLimits
from gateway.rpc import NamekoRpc
from shared.errors import Forbidden, Unauthorized

WRITE_ERRORS = (400, 404, 409, 413, 422)


class Caller:
    auth: TokenVerifier
    limits: RateLimits
    players: PlayerLeases
    services: NamekoRpc

    async def _identity(self, request: Request, as_author: bool = False) -> Identity:
        """The verified caller. A mutating request spends from its player's budget (an
        Author's on an authoring route, ``as_author``: from its author budget), or,
        when its token is missing or refused, from its client address's budget, so bad
        tokens never spend an honest player's (gateway/ratelimit.py): 429 over either."""
        try:
            token = bearer_token(request.headers.get("Authorization"))
            identity: Identity = await self.auth.verify_async(token)
        except Unauthorized:
            self.limits.check_unauthenticated(request.method, request_environ(request))
            raise
        if as_author and identity.is_author:
            self.limits.check_author(request.method, identity.sub)
        else:
            self.limits.check_player(request.method, identity.sub)
        return identity

    async def _active_player(self, identity: Identity, current: bool = False) -> dict[str, Any]:
        """The caller's player, registered on first sight; a locked account is refused.
        An active answer is leased (gateway/players.py): no RPC then. ``current``: the
        player as shown (its points) no older than the short lease."""
        player: dict[str, Any] = await self.players.active_player(
            identity.sub,
            lambda: self.services.call("accounts", "me", sub=identity.sub),
            current=current,
        )
        if player["status"] != "active":
            raise Forbidden("account_locked", "this account is locked and cannot be used")
        return player

    async def _player_id(self, request: Request) -> str:
        """The caller's player id, from the verified token; locked accounts are refused."""
        return str((await self._active_player(await self._identity(request)))["id"])

    async def _author(self, request: Request) -> Identity:
        """An active player whose token grants the Author role; anyone else learns nothing.
        An Author's writes here spend its author budget, not its player's."""
        identity = await self._identity(request, as_author=True)
        await self._active_player(identity)
        if not identity.is_author:
            raise Forbidden("author_role_required", "only Authors may use authoring routes")
        return identity


def no_content() -> Response:
    """204: no body, so no Content-Type either."""
    return Response(status_code=204)
