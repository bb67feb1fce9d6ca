"""The caller's own account: ``/me``, progression, and deleting the account.

No route takes a player id: the account is always the caller's own, named by the
verified token's subject. The deletion routes do not go through ``_active_player``:
a locked account (its deletion under way) may still ask again (the same deletion
comes back) and read how far it got. ``DELETE /me`` answers only once every
gateway's lease on the account has run out (gateway/players.py), so from its answer
on the lock holds everywhere. docs/account-deletion.md describes the whole flow.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import ACCOUNTS
from gateway.push.stream import EventStream
from gateway.routes.accounts_schemas import (
    DeleteAccountRequest,
    DeletionSchema,
    MeSchema,
    ProgressionQuery,
    ProgressionSchema,
)
from gateway.routes.base import Caller

TAGS = ("accounts",)


class AccountRoutes(Caller):
    stream: EventStream  # DELETE /me announces the lock on it (gateway/players.py)

    @api(
        "GET",
        "/me",
        RouteDoc(
            "The caller's player; registers it on the first call",
            MeSchema,
            auth="player",
            tags=TAGS,
            codes=ACCOUNTS,
        ),
    )
    async def me(self, request: Request) -> dict[str, Any]:
        """``GET /me`` with ``Authorization: Bearer <token>`` ->
        ``{"id": "7f0c...", "roles": ["player"], "status": "active",
        "registeredAt": "2026-11-30T12:00:00+00:00", "registeredNow": true}``
        """
        identity = await self._identity(request)
        player = await self._active_player(identity, current=True)
        return {**player, "roles": sorted(identity.roles)}

    @api(
        "GET",
        "/me/progression",
        RouteDoc(
            "Your progression points and where they came from, newest first (?limit=)",
            ProgressionSchema,
            auth="player",
            query=ProgressionQuery,
            errors=(422,),
            tags=TAGS,
            codes=ACCOUNTS,
        ),
    )
    async def progression(self, request: Request) -> Any:
        """``GET /me/progression?limit=2`` -> ``{"playerId": "...", "points": 40,
        "entries": [{"sourceType": "attempt", "points": 40, "occurredAt": "..."}]}``"""
        player_id = await self._player_id(request)
        args = load(ProgressionQuery(), query_args(request))
        return await self.services.call(
            "accounts", "progression", player_id=player_id, limit=args["limit"]
        )

    @api(
        "DELETE",
        "/me",
        RouteDoc(
            "Delete your account: it locks at once, then every service purges your data "
            'and the login is deleted. Body {"confirm": "DELETE MY ACCOUNT"}; needs a login '
            "from the last DELETION_REAUTH_SECONDS (token auth_time). 202 started; "
            "202 again for the same deletion; 200 once completed",
            DeletionSchema,
            DeleteAccountRequest,
            auth="player",
            status=202,
            errors=(400, 404, 413, 422),
            also=(200,),
            tags=TAGS,
            codes=ACCOUNTS,
        ),
    )
    async def delete_me(self, request: Request) -> tuple[int, Any]:
        """``DELETE /me`` ``{"confirm": "DELETE MY ACCOUNT"}`` -> 202 ``{"id": "...",
        "status": "purging_data", "requestedAt": "...", "completedAt": null,
        "services": {"cards": "pending", ...}, "identity": "pending"}``"""
        identity = await self._identity(request)
        args = load(DeleteAccountRequest(), json_input(request))
        asked_at = self.players.now()
        try:
            started = await self.services.call(
                "accounts",
                "request_deletion",
                sub=identity.sub,
                auth_time=identity.auth_time,
                confirm=args["confirm"],
            )
        finally:
            # The lock may have committed even if the call failed: answer nothing
            # until no replica's lease can still call this account active.
            await self.players.outlast(identity.sub, asked_at, self.stream.announce_revocation)
        deletion = started["deletion"]
        return (200 if deletion["status"] == "completed" else 202), deletion

    @api(
        "GET",
        "/me/deletion",
        RouteDoc(
            "Your account's deletion: how far it got, or that it completed",
            DeletionSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=ACCOUNTS,
        ),
    )
    async def deletion_status(self, request: Request) -> Any:
        """``GET /me/deletion`` -> the deletion as ``DELETE /me`` answered it, updated"""
        identity = await self._identity(request)
        return await self.services.call("accounts", "deletion_status", sub=identity.sub)
