"""Chronovore matches against the computer: start, read, act (place, move, take back,
lock in), leave, history (docs/chronovore.md, "The API").

The player id always comes from the verified token, so another player's match is not
found; a Quest match is not found here either. Every answer is the player's seat view:
the CPU's slotted cards stay face down until their pair resolves.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import BATTLE
from gateway.routes.base import Caller
from gateway.routes.chronovore.matches_schemas import (
    LeaveChronovoreMatchRequest,
    MatchActionRequest,
    MatchHistorySchema,
    MatchPageSchema,
    MatchResultSchema,
    MatchViewSchema,
    StartChronovoreMatchRequest,
)
from gateway.routes.pages import PageQuery
from gateway.routes.quest.battles import IDEMPOTENCY_HEADER, WRITE_ERRORS, idempotency_key

GAME = "chronovore"
TAGS = ("chronovore matches",)


class ChronovoreMatchRoutes(Caller):
    @api(
        "POST",
        "/chronovore/matches",
        RouteDoc(
            "Start a match against the computer with one of your legal decks (409 with "
            "the active match's id if you have one)",
            MatchViewSchema,
            StartChronovoreMatchRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def start_chronovore_match(self, request: Request) -> tuple[int, Any]:
        """``{"deckId": "<deck id>"}`` -> 201 the match in round 1: ``{"id": "...",
        "version": 5, "deadline": "...", "you": {"hand": [...]}, "opponent": {"locked":
        true, "slots": ["face_down", ...]}, "legalActions": [...]}``"""
        player_id = await self._player_id(request)
        args = load(StartChronovoreMatchRequest(), json_input(request))
        started = await self.services.call(
            "battle", "start_chronovore_match", player_id=player_id, deck_id=str(args["deck_id"])
        )
        return 201, started

    @api(
        "GET",
        "/chronovore/matches",
        RouteDoc(
            "Your matches against the computer, newest first: status, result, times "
            "(?cursor=&limit=)",
            MatchPageSchema,
            auth="player",
            query=PageQuery,
            errors=(422,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def list_chronovore_matches(self, request: Request) -> Any:
        """``GET /chronovore/matches?limit=2`` -> ``{"items": [{"id": "...", "mode": "cpu",
        "opponent": "cpu", "status": "finished", "result": "win", "createdAt": "...",
        "finishedAt": "..."}], "next": "1796130000000000-0f3c..."}``"""
        args = load(PageQuery(), query_args(request))
        return await self.services.call(
            "battle", "cpu_matches", player_id=await self._player_id(request), game=GAME, **args
        )

    @api(
        "GET",
        "/chronovore/matches/active",
        RouteDoc(
            "Your active match against the computer (404 if none)",
            MatchViewSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def active_chronovore_match(self, request: Request) -> Any:
        """``GET /chronovore/matches/active`` -> the match, as ``GET /chronovore/matches/<id>``"""
        return await self.services.call(
            "battle", "active_match", player_id=await self._player_id(request), game=GAME
        )

    @api(
        "GET",
        "/chronovore/matches/<uuid:match_id>",
        RouteDoc(
            "One of your matches, as your seat may see it (time alone may have locked you in)",
            MatchViewSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def get_chronovore_match(self, request: Request, match_id: Any) -> Any:
        """``GET /chronovore/matches/<id>`` -> ``{"round": 2, "version": 12, ...}``"""
        return await self.services.call(
            "battle",
            "get_match",
            player_id=await self._player_id(request),
            match_id=str(match_id),
            game=GAME,
        )

    @api(
        "POST",
        "/chronovore/matches/<uuid:match_id>/actions",
        RouteDoc(
            "Place, move or take back a card, or lock in, at the version you saw; once "
            "both rows are locked the pairs resolve and the CPU chooses its next row",
            MatchResultSchema,
            MatchActionRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            headers=(IDEMPOTENCY_HEADER,),
            codes=BATTLE,
            operation_id="actInChronovoreMatch",
        ),
    )
    async def chronovore_match_action(self, request: Request, match_id: Any) -> Any:
        """``{"expectedVersion": 5, "action": {"kind": "place", "card": 3, "slot": 0}}`` ->
        the match at its new version with ``events``"""
        player_id = await self._player_id(request)
        args = load(MatchActionRequest(), json_input(request))
        return await self.services.call(
            "battle",
            "act",
            player_id=player_id,
            match_id=str(match_id),
            game=GAME,
            expected_version=args["expected_version"],
            action=args["action"],
            idempotency_key=idempotency_key(
                request.headers.get("Idempotency-Key"), args["idempotency_key"]
            ),
        )

    @api(
        "POST",
        "/chronovore/matches/<uuid:match_id>/leave",
        RouteDoc(
            "Leave the match: your opponent (the computer or another player) wins, and you "
            "receive no Gold",
            MatchResultSchema,
            LeaveChronovoreMatchRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            headers=(IDEMPOTENCY_HEADER,),
            codes=BATTLE,
            operation_id="leaveChronovoreMatch",
        ),
    )
    async def leave_chronovore_match(self, request: Request, match_id: Any) -> Any:
        """``{"expectedVersion": 7}`` -> the finished match, ``"result": "left"``"""
        player_id = await self._player_id(request)
        args = load(LeaveChronovoreMatchRequest(), json_input(request))
        return await self.services.call(
            "battle",
            "forfeit",
            player_id=player_id,
            match_id=str(match_id),
            game=GAME,
            expected_version=args["expected_version"],
            idempotency_key=idempotency_key(
                request.headers.get("Idempotency-Key"), args["idempotency_key"]
            ),
        )

    @api(
        "GET",
        "/chronovore/matches/<uuid:match_id>/history",
        RouteDoc(
            "Your match's action log, as your seat may see it",
            MatchHistorySchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
            operation_id="getChronovoreMatchHistory",
        ),
    )
    async def chronovore_match_history(self, request: Request, match_id: Any) -> Any:
        """``GET /chronovore/matches/<id>/history`` -> ``{"matchId": "...", "entries":
        [{"seq": 1, "seat": "cpu", "action": {"kind": "place", "slot": 0}, ...}]}``"""
        return await self.services.call(
            "battle",
            "match_history",
            player_id=await self._player_id(request),
            match_id=str(match_id),
            game=GAME,
        )
