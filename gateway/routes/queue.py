"""What every game's matchmaking queue route does (Chronovore's, docs/chronovore.md; Quest's
live matches, docs/quest-pvp.md): the rules are battle's (services/battle/pvp.py), the
routes name their game's path and words."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import json_input
from gateway.routes.base import Caller, no_content
from gateway.routes.chronovore.pvp_schemas import JoinQueueRequest


class QueueCalls(Caller):
    async def _join_queue(self, request: Request, game: str) -> Any:
        player_id = await self._player_id(request)
        args = load(JoinQueueRequest(), json_input(request))
        return await self.services.call(
            "battle",
            "pvp_join_queue",
            player_id=player_id,
            deck_id=str(args["deck_id"]),
            game=game,
        )

    async def _queue(self, request: Request, game: str) -> Any:
        return await self.services.call(
            "battle", "pvp_queue", player_id=await self._player_id(request), game=game
        )

    async def _leave_queue(self, request: Request, game: str) -> Response:
        await self.services.call(
            "battle", "pvp_leave_queue", player_id=await self._player_id(request), game=game
        )
        return no_content()
