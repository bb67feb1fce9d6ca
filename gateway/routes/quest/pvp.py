"""Quest against another player: your asynchronous matches and your record, and the live
matchmaking queue (docs/quest-pvp.md; invitations by pseudonym:
gateway/routes/invitations.py).

An accepted invitation's match is played through the battle routes (``battles.py``: view,
actions with the expected version and an idempotency key, forfeit, history), each seat
seeing only its own cards; both players are told of every change through push
(``match.your_turn`` / ``match.updated``, then ``match.finished``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import RouteDoc, api, query_args
from gateway.problem_codes import BATTLE
from gateway.routes.base import WRITE_ERRORS
from gateway.routes.chronovore.pvp_schemas import JoinQueueRequest, QueueSchema
from gateway.routes.pages import PageQuery
from gateway.routes.quest.pvp_schemas import PvpMatchesSchema
from gateway.routes.queue import QueueCalls

TAGS = ("quest against a player",)


class QuestPvpRoutes(QueueCalls):
    @api(
        "GET",
        "/quest/pvp-matches",
        RouteDoc(
            "Your matches against players, asynchronous and live, newest first "
            "(?cursor=&limit=), and your win/loss record",
            PvpMatchesSchema,
            auth="player",
            query=PageQuery,
            errors=(422,),
            tags=TAGS,
            codes=BATTLE,
            operation_id="listQuestPvpMatches",
        ),
    )
    async def quest_pvp_matches(self, request: Request) -> Any:
        """``GET /quest/pvp-matches?limit=20`` -> ``{"items": [{"id": "...", "opponentName":
        "Keeper-3fa2c1", "yourTurn": true, ...}], "next": "1796130000000000-0f3c...",
        "record": {"wins": 2, "losses": 1, "uncounted": 0}, "activeLimit": 10}``"""
        args = load(PageQuery(), query_args(request))
        return await self.services.call(
            "battle",
            "pvp_matches",
            player_id=await self._player_id(request),
            game="quest",
            **args,
        )

    # -- live matches: the matchmaking queue ---------------------------------------------------

    @api(
        "POST",
        "/quest/queue",
        RouteDoc(
            "Wait for a live opponent with one of your legal decks (snapshotted now; again: "
            "the deck changes, your place stays); paired at once when someone is waiting "
            "(409 while you have an active live match). Live matches have 60-second windows",
            QueueSchema,
            JoinQueueRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="joinQuestQueue",
        ),
    )
    async def join_quest_queue(self, request: Request) -> Any:
        """``{"deckId": "<deck id>"}`` -> ``{"status": "queued", "waiting": 1, ...}`` or,
        paired, ``{"status": "matched", "matchId": "..."}``"""
        return await self._join_queue(request, "quest")

    @api(
        "GET",
        "/quest/queue",
        RouteDoc(
            "Whether you wait in the live queue, and your active live match",
            QueueSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="getQuestQueue",
        ),
    )
    async def quest_queue(self, request: Request) -> Any:
        """``GET /quest/queue`` -> ``{"status": "matched", "matchId": "...", ...}``"""
        return await self._queue(request, "quest")

    @api(
        "DELETE",
        "/quest/queue",
        RouteDoc(
            "Stop waiting for a live opponent (404 when you are not in the queue)",
            auth="player",
            status=204,
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
            operation_id="leaveQuestQueue",
        ),
    )
    async def leave_quest_queue(self, request: Request) -> Response:
        """``DELETE /quest/queue`` -> 204, no body"""
        return await self._leave_queue(request, "quest")
