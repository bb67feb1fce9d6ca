"""Chronovore against another player: the matchmaking queue and direct invitations
(docs/chronovore.md, "Against another player").

A match made here is played through the match routes (``matches.py``: view, actions,
leave, history), the same as against the computer; both players are told of every change
through push (``match.your_turn`` / ``match.updated``, then ``match.finished``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input
from gateway.problem_codes import BATTLE
from gateway.routes.base import WRITE_ERRORS, Caller, no_content
from gateway.routes.chronovore.matches_schemas import MatchViewSchema
from gateway.routes.chronovore.pvp_schemas import (
    AcceptInvitationRequest,
    InvitationSchema,
    InvitationsSchema,
    InviteRequest,
    JoinQueueRequest,
    QueueSchema,
)

TAGS = ("chronovore against a player",)


class ChronovorePvpRoutes(Caller):
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
        player_id = await self._player_id(request)
        args = load(JoinQueueRequest(), json_input(request))
        return await self.services.call(
            "battle", "pvp_join_queue", player_id=player_id, deck_id=str(args["deck_id"])
        )

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
        return await self.services.call(
            "battle", "pvp_queue", player_id=await self._player_id(request)
        )

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
        await self.services.call(
            "battle", "pvp_leave_queue", player_id=await self._player_id(request)
        )
        return no_content()

    @api(
        "POST",
        "/chronovore/invitations",
        RouteDoc(
            "Invite a player by pseudonym with one of your legal decks (it expires "
            "after 10 minutes)",
            InvitationSchema,
            InviteRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="createChronovoreInvitation",
        ),
    )
    async def invite_to_chronovore(self, request: Request) -> tuple[int, Any]:
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
        )
        return 201, invitation

    @api(
        "GET",
        "/chronovore/invitations",
        RouteDoc(
            "Your pseudonym and your newest invitations, sent and received",
            InvitationsSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="listChronovoreInvitations",
        ),
    )
    async def chronovore_invitations(self, request: Request) -> Any:
        """``GET /chronovore/invitations`` -> ``{"you": "Keeper-3fa2c1", "items": [...]}``"""
        return await self.services.call(
            "battle", "pvp_invitations", player_id=await self._player_id(request)
        )

    @api(
        "POST",
        "/chronovore/invitations/<uuid:invitation_id>/accept",
        RouteDoc(
            "Accept an invitation with one of your legal decks: the match starts",
            MatchViewSchema,
            AcceptInvitationRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="acceptChronovoreInvitation",
        ),
    )
    async def accept_chronovore_invitation(
        self, request: Request, invitation_id: Any
    ) -> tuple[int, Any]:
        """``{"deckId": "..."}`` -> 201 the match in round 1, as your seat sees it"""
        player_id = await self._player_id(request)
        args = load(AcceptInvitationRequest(), json_input(request))
        match = await self.services.call(
            "battle",
            "pvp_accept",
            player_id=player_id,
            invitation_id=str(invitation_id),
            deck_id=str(args["deck_id"]),
        )
        return 201, match

    @api(
        "POST",
        "/chronovore/invitations/<uuid:invitation_id>/decline",
        RouteDoc(
            "Decline an invitation sent to you",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="declineChronovoreInvitation",
        ),
    )
    async def decline_chronovore_invitation(self, request: Request, invitation_id: Any) -> Any:
        """``POST /chronovore/invitations/<id>/decline`` -> ``{"status": "declined", ...}``"""
        return await self.services.call(
            "battle",
            "pvp_decline",
            player_id=await self._player_id(request),
            invitation_id=str(invitation_id),
        )

    @api(
        "DELETE",
        "/chronovore/invitations/<uuid:invitation_id>",
        RouteDoc(
            "Cancel an invitation you sent",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="cancelChronovoreInvitation",
        ),
    )
    async def cancel_chronovore_invitation(self, request: Request, invitation_id: Any) -> Any:
        """``DELETE /chronovore/invitations/<id>`` -> ``{"status": "cancelled", ...}``"""
        return await self.services.call(
            "battle",
            "pvp_cancel",
            player_id=await self._player_id(request),
            invitation_id=str(invitation_id),
        )
