"""Quest CPU battles: start, read, act, forfeit, history (docs/quest-battles.md).

The player id always comes from the verified
token (through accounts), so a match id of another player is simply not found.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import BATTLE
from gateway.routes.base import Caller
from gateway.routes.pages import PageQuery
from gateway.routes.quest.battles_schemas import (
    MAX_IDEMPOTENCY_KEY,
    BattleActionRequest,
    BattleHistorySchema,
    BattlePageSchema,
    BattleResultSchema,
    BattleViewSchema,
    ForfeitRequest,
    StartBattleRequest,
)
from shared.errors import InvalidInput

WRITE_ERRORS = (400, 404, 409, 413, 422, 503)
TAGS = ("quest battles",)
ACTION_REQUEST = BattleActionRequest()  # built once: the hot path (stateless once built)
IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Or idempotencyKey in the body (both: the same): the same key again "
    "returns the first answer",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
}


def idempotency_key(header: str | None, in_body: str | None) -> str | None:
    """The body's ``idempotencyKey`` or the ``Idempotency-Key`` header (both: the same)."""
    if header is None:
        return in_body
    if not 1 <= len(header) <= MAX_IDEMPOTENCY_KEY:
        raise InvalidInput(
            "invalid_idempotency_key",
            f"an idempotency key has 1 to {MAX_IDEMPOTENCY_KEY} characters",
        )
    if in_body is not None and in_body != header:
        raise InvalidInput(
            "idempotency_key_mismatch", "the Idempotency-Key header and idempotencyKey differ"
        )
    return header


class QuestBattleRoutes(Caller):
    @api(
        "POST",
        "/quest/battles",
        RouteDoc(
            "Start a CPU battle with one of your saved decks (409 with the active "
            "match's id if you have one)",
            BattleViewSchema,
            StartBattleRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def start_battle(self, request: Request) -> tuple[int, Any]:
        """``{"deckId": "<deck id>"}`` -> 201 the match: ``{"id": "...", "status": "active",
        "phase": "initial_selection", "version": 1, "legalActions": [{"kind":
        "select_creature", "index": 0}, ...], "you": {...}, "opponent": {...}}``"""
        player_id = await self._player_id(request)
        args = load(StartBattleRequest(), json_input(request))
        started = await self.services.call(
            "battle", "start_match", player_id=player_id, deck_id=str(args["deck_id"])
        )
        return 201, started

    @api(
        "GET",
        "/quest/battles",
        RouteDoc(
            "Your CPU battles, newest first: status, outcome, times (?cursor=&limit=)",
            BattlePageSchema,
            auth="player",
            query=PageQuery,
            errors=(422,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def list_battles(self, request: Request) -> Any:
        """``GET /quest/battles?limit=2`` -> ``{"items": [{"id": "...", "mode": "cpu",
        "opponent": "cpu", "status": "finished", "outcome": "victory", "createdAt": "...",
        "finishedAt": "..."}], "next": "1796130000000000-0f3c..."}``"""
        args = load(PageQuery(), query_args(request))
        return await self.services.call(
            "battle", "cpu_matches", player_id=await self._player_id(request), **args
        )

    @api(
        "GET",
        "/quest/battles/active",
        RouteDoc(
            "Your active CPU battle (404 if none)",
            BattleViewSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def active_battle(self, request: Request) -> Any:
        """``GET /quest/battles/active`` -> the match, as ``GET /quest/battles/<id>``"""
        return await self.services.call(
            "battle", "active_match", player_id=await self._player_id(request)
        )

    @api(
        "GET",
        "/quest/battles/<uuid:match_id>",
        RouteDoc(
            "One of your CPU battles, as you may see it",
            BattleViewSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def get_battle(self, request: Request, match_id: Any) -> Any:
        """``GET /quest/battles/<id>`` -> ``{"id": "...", "deckId": "...", "version": 4,
        "yourTurn": true, "turnNumber": 2, "legalActions": [...], ...}``"""
        return await self.services.call(
            "battle", "get_match", player_id=await self._player_id(request), match_id=str(match_id)
        )

    @api(
        "POST",
        "/quest/battles/<uuid:match_id>/actions",
        RouteDoc(
            "Take one legal action at the version you saw; the CPU replies at once",
            BattleResultSchema,
            BattleActionRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            headers=(IDEMPOTENCY_HEADER,),
            codes=BATTLE,
            operation_id="actInQuestBattle",
        ),
    )
    async def battle_action(self, request: Request, match_id: Any) -> Any:
        """``{"expectedVersion": 3, "action": {"kind": "use_move", "index": 1}}`` -> the
        match at its new version with ``events`` (your move, the CPU's reply)"""
        player_id = await self._player_id(request)
        args = load(ACTION_REQUEST, json_input(request))
        return await self.services.call(
            "battle",
            "act",
            player_id=player_id,
            match_id=str(match_id),
            expected_version=args["expected_version"],
            action=args["action"],
            idempotency_key=idempotency_key(
                request.headers.get("Idempotency-Key"), args["idempotency_key"]
            ),
        )

    @api(
        "POST",
        "/quest/battles/<uuid:match_id>/forfeit",
        RouteDoc(
            "Forfeit: the CPU wins, you score nothing",
            BattleResultSchema,
            ForfeitRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            headers=(IDEMPOTENCY_HEADER,),
            codes=BATTLE,
        ),
    )
    async def forfeit_battle(self, request: Request, match_id: Any) -> Any:
        """``{"expectedVersion": 3}`` -> the finished match, ``"outcome": "forfeit"``"""
        player_id = await self._player_id(request)
        args = load(ForfeitRequest(), json_input(request))
        return await self.services.call(
            "battle",
            "forfeit",
            player_id=player_id,
            match_id=str(match_id),
            expected_version=args["expected_version"],
            idempotency_key=idempotency_key(
                request.headers.get("Idempotency-Key"), args["idempotency_key"]
            ),
        )

    @api(
        "GET",
        "/quest/battles/<uuid:match_id>/history",
        RouteDoc(
            "Your battle's action log, as you may see it",
            BattleHistorySchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=BATTLE,
        ),
    )
    async def battle_history(self, request: Request, match_id: Any) -> Any:
        """``GET /quest/battles/<id>/history`` -> ``{"matchId": "...", "version": 4,
        "entries": [{"seq": 1, "side": "player", "action": {...}, "events": [...]}]}``"""
        return await self.services.call(
            "battle",
            "match_history",
            player_id=await self._player_id(request),
            match_id=str(match_id),
        )
