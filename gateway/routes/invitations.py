"""Invitations to a match against another player, by pseudonym, in each game that has
them (``/<versus:game>/...``: Chronovore's live matches, docs/chronovore.md; Quest's
asynchronous ones and, with ``"mode": "live"``, its direct live challenges,
docs/quest-pvp.md). Accepting, declining and cancelling work on either kind by id.
The rules are battle's (services/battle/pvp.py); an invitation of another game is not
found under this one.

The accepted invitation's match is played through its game's match routes; both players
are told at once through push (``match.your_turn``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import BATTLE
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.invitations_schemas import (
    AcceptedMatchSchema,
    AcceptInvitationRequest,
    InvitationSchema,
    InvitationsSchema,
    InviteRequest,
)
from gateway.routes.pages import PageQuery

TAGS = ("against a player",)


class InvitationRoutes(Caller):
    async def _on_invitation(
        self, request: Request, game: str, method: str, invitation_id: Any, **more: Any
    ) -> Any:
        return await self.services.call(
            "battle",
            method,
            player_id=await self._player_id(request),
            invitation_id=str(invitation_id),
            game=game,
            **more,
        )

    @api(
        "POST",
        "/<versus:game>/invitations",
        RouteDoc(
            "Invite a player by pseudonym with one of your legal decks (it expires after "
            "10 minutes in Chronovore, 24 hours in Quest; a Quest live challenge, mode "
            "live, after 2 minutes)",
            InvitationSchema,
            InviteRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="createInvitation",
        ),
    )
    async def invite(self, request: Request, game: str) -> tuple[int, Any]:
        """``POST /quest/invitations {"to": "Keeper-3fa2c1", "deckId": "...", "mode":
        "live"}`` -> 201 ``{"id": "...", "status": "pending", "mode": "live", "expiresAt":
        "..."}``"""
        player_id = await self._player_id(request)
        args = load(InviteRequest(), json_input(request))
        invitation = await self.services.call(
            "battle",
            "pvp_invite",
            player_id=player_id,
            to=args["to"],
            deck_id=str(args["deck_id"]),
            game=game,
            mode=args["mode"],
        )
        return 201, invitation

    @api(
        "GET",
        "/<versus:game>/invitations",
        RouteDoc(
            "Your pseudonym and your invitations of the game, sent and received, newest "
            "first (?cursor=&limit=)",
            InvitationsSchema,
            auth="player",
            query=PageQuery,
            errors=(404, 422),  # a game without invitations; a cursor not of this list
            tags=TAGS,
            codes=BATTLE,
            operation_id="listInvitations",
        ),
    )
    async def invitations(self, request: Request, game: str) -> Any:
        """``GET /quest/invitations?limit=20`` -> ``{"you": "Keeper-3fa2c1", "items": [...],
        "next": "1796130000000000-0f3c..."}``"""
        args = load(PageQuery(), query_args(request))
        return await self.services.call(
            "battle",
            "pvp_invitations",
            player_id=await self._player_id(request),
            game=game,
            **args,
        )

    @api(
        "POST",
        "/<versus:game>/invitations/<uuid:invitation_id>/accept",
        RouteDoc(
            "Accept an invitation with one of your legal decks: the match starts (both "
            "decks snapshotted), answered as your seat sees it",
            AcceptedMatchSchema,
            AcceptInvitationRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=BATTLE,
            operation_id="acceptInvitation",
        ),
    )
    async def accept_invitation(
        self, request: Request, game: str, invitation_id: Any
    ) -> tuple[int, Any]:
        """``{"deckId": "..."}`` -> 201 the match, as ``GET /quest/battles/<id>``"""
        args = load(AcceptInvitationRequest(), json_input(request))
        deck_id = str(args["deck_id"])
        match = await self._on_invitation(
            request, game, "pvp_accept", invitation_id, deck_id=deck_id
        )
        return 201, match

    @api(
        "POST",
        "/<versus:game>/invitations/<uuid:invitation_id>/decline",
        RouteDoc(
            "Decline an invitation sent to you",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="declineInvitation",
        ),
    )
    async def decline_invitation(self, request: Request, game: str, invitation_id: Any) -> Any:
        """``POST /quest/invitations/<id>/decline`` -> ``{"status": "declined", ...}``"""
        return await self._on_invitation(request, game, "pvp_decline", invitation_id)

    @api(
        "DELETE",
        "/<versus:game>/invitations/<uuid:invitation_id>",
        RouteDoc(
            "Cancel a pending invitation you sent",
            InvitationSchema,
            auth="player",
            errors=(404, 409),
            tags=TAGS,
            codes=BATTLE,
            operation_id="cancelInvitation",
        ),
    )
    async def cancel_invitation(self, request: Request, game: str, invitation_id: Any) -> Any:
        """``DELETE /quest/invitations/<id>`` -> ``{"status": "cancelled", ...}``"""
        return await self._on_invitation(request, game, "pvp_cancel", invitation_id)
