"""Chronovore against another player: the matchmaking queue (docs/chronovore.md,
"Against another player"; invitations: gateway/routes/invitations.py).

A match made here is played through the match routes (``matches.py``: view, actions,
leave, history), the same as against the computer; both players are told of every change
through push (``match.your_turn`` / ``match.updated``, then ``match.finished``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.http import RouteDoc, api
from gateway.problem_codes import BATTLE
from gateway.routes.base import WRITE_ERRORS
from gateway.routes.chronovore.pvp_schemas import JoinQueueRequest, QueueSchema
from gateway.routes.queue import QueueCalls

TAGS = ("chronovore against a player",)


class ChronovorePvpRoutes(QueueCalls):
    @api(
        "POST",
        "/chronovore/queue",
        RouteDoc(
            "Wait for an opponent with one of your legal decks (again: the deck changes, "
            "your place stays); paired at once when someone is waiting (409 while you have "
            "an active match against a player)",
            QueueSchema,
            JoinQueueRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="joinChronovoreQueue",
        ),
    )
    async def join_chronovore_queue(self, request: Request) -> Any:
        """``{"deckId": "<deck id>"}`` -> ``{"status": "queued", "waiting": 1, ...}`` or,
        paired, ``{"status": "matched", "matchId": "..."}``"""
        return await self._join_queue(request, "chronovore")

    @api(
        "GET",
        "/chronovore/queue",
        RouteDoc(
            "Whether you wait in the queue, and your active match against a player",
            QueueSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="getChronovoreQueue",
        ),
    )
    async def chronovore_queue(self, request: Request) -> Any:
        """``GET /chronovore/queue`` -> ``{"status": "matched", "matchId": "...", ...}``"""
        return await self._queue(request, "chronovore")

    @api(
        "DELETE",
        "/chronovore/queue",
        RouteDoc(
            "Stop waiting (404 when you are not in the queue)",
            auth="player",
            status=204,
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
            operation_id="leaveChronovoreQueue",
        ),
    )
    async def leave_chronovore_queue(self, request: Request) -> Response:
        """``DELETE /chronovore/queue`` -> 204, no body"""
        return await self._leave_queue(request, "chronovore")
