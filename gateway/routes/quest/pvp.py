"""Quest against another player, asynchronously: invitations by pseudonym, your matches
and your record (docs/quest-pvp.md).

An accepted invitation's match is played through the battle routes (``battles.py``: view,
actions with the expected version and an idempotency key, forfeit, history), each seat
seeing only its own cards; both players are told of every change through push
(``match.your_turn`` / ``match.updated``, then ``match.finished``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input
from gateway.problem_codes import BATTLE
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.invitations_schemas import (
    AcceptInvitationRequest,
    InvitationSchema,
    InvitationsSchema,
    InviteRequest,
)
from gateway.routes.quest.battles_schemas import BattleViewSchema
from gateway.routes.quest.pvp_schemas import PvpMatchesSchema

TAGS = ("quest against a player",)
GAME = "quest"


class QuestPvpRoutes(Caller):
    async def _invitation_call(self, request: Request, method: str, invitation_id: Any) -> Any:
        return await self.services.call(
            "battle",
            method,
            player_id=await self._player_id(request),
            invitation_id=str(invitation_id),
            game=GAME,
        )

    @api(
        "POST",
        "/quest/invitations",
        RouteDoc(
            "Invite a player by pseudonym to an asynchronous match with one of your legal "
            "decks (it expires after 24 hours)",
            InvitationSchema,
            InviteRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="createQuestInvitation",
        ),
    )
    async def invite_to_quest(self, request: Request) -> tuple[int, Any]:
        """``{"to": "Keeper-3fa2c1", "deckId": "..."}`` -> 201 ``{"id": "...", "status":
        "pending", "expiresAt": "..."}``"""
        player_id = await self._player_id(request)
        args = load(InviteRequest(), json_input(request))
        invitation = await self.services.call(
            "battle",
            "pvp_invite",
            player_id=player_id,
            to=args["to"],
            deck_id=str(args["deck_id"]),
            game=GAME,
        )
        return 201, invitation

    @api(
        "GET",
        "/quest/invitations",
        RouteDoc(
            "Your pseudonym and your newest Quest invitations, sent and received",
            InvitationsSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="listQuestInvitations",
        ),
    )
    async def quest_invitations(self, request: Request) -> Any:
        """``GET /quest/invitations`` -> ``{"you": "Keeper-3fa2c1", "items": [...]}``"""
        return await self.services.call(
            "battle", "pvp_invitations", player_id=await self._player_id(request), game=GAME
        )

    @api(
        "POST",
        "/quest/invitations/<uuid:invitation_id>/accept",
        RouteDoc(
            "Accept an invitation with one of your legal decks: the match starts, both "
            "decks snapshotted now",
            BattleViewSchema,
            AcceptInvitationRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="acceptQuestInvitation",
        ),
    )
    async def accept_quest_invitation(
        self, request: Request, invitation_id: Any
    ) -> tuple[int, Any]:
        """``{"deckId": "..."}`` -> 201 the match in its initial selection, as you see it"""
        player_id = await self._player_id(request)
        args = load(AcceptInvitationRequest(), json_input(request))
        match = await self.services.call(
            "battle",
            "pvp_accept",
            player_id=player_id,
            invitation_id=str(invitation_id),
            deck_id=str(args["deck_id"]),
            game=GAME,
        )
        return 201, match

    @api(
        "POST",
        "/quest/invitations/<uuid:invitation_id>/decline",
        RouteDoc(
            "Decline a Quest invitation sent to you",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="declineQuestInvitation",
        ),
    )
    async def decline_quest_invitation(self, request: Request, invitation_id: Any) -> Any:
        """``POST /quest/invitations/<id>/decline`` -> ``{"status": "declined", ...}``"""
        return await self._invitation_call(request, "pvp_decline", invitation_id)

    @api(
        "DELETE",
        "/quest/invitations/<uuid:invitation_id>",
        RouteDoc(
            "Cancel a pending Quest invitation you sent",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="cancelQuestInvitation",
        ),
    )
    async def cancel_quest_invitation(self, request: Request, invitation_id: Any) -> Any:
        """``DELETE /quest/invitations/<id>`` -> ``{"status": "cancelled", ...}``"""
        return await self._invitation_call(request, "pvp_cancel", invitation_id)

    @api(
        "GET",
        "/quest/pvp-matches",
        RouteDoc(
            "Your asynchronous matches against players (active first) and your win/loss record",
            PvpMatchesSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="listQuestPvpMatches",
        ),
    )
    async def quest_pvp_matches(self, request: Request) -> Any:
        """``GET /quest/pvp-matches`` -> ``{"items": [{"id": "...", "opponentName":
        "Keeper-3fa2c1", "yourTurn": true, ...}], "record": {"wins": 2, "losses": 1,
        "uncounted": 0}, "activeLimit": 10}``"""
        return await self.services.call(
            "battle", "pvp_matches", player_id=await self._player_id(request), game=GAME
        )
