"""Deleting your own account: ``DELETE /me`` and ``GET /me/deletion``.

A mixin of the gateway service. Neither route takes a player id: the account is
always the caller's own, named by the verified token's subject. They do not go
through ``_active_player``: a locked account (its deletion under way) may still
ask again (the same deletion comes back) and read how far it got. ``DELETE /me``
answers only once every gateway's lease on the account has run out
(gateway/players.py), so from its answer on the lock holds everywhere.
docs/account-deletion.md describes the whole flow.
"""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Request

from gateway.entrypoints import RouteDoc, api, json_input
from gateway.routes import PlayerRoutes
from gateway.schemas import DeleteAccountRequest, DeletionSchema
from shared.schemas import load


class AccountRoutes(PlayerRoutes):
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
            tags=("accounts",),
        ),
    )
    def delete_me(self, request: Request) -> tuple[int, Any]:
        """``DELETE /me`` ``{"confirm": "DELETE MY ACCOUNT"}`` -> 202 ``{"id": "...",
        "status": "purging_data", "requested_at": "...", "completed_at": null,
        "services": {"cards": "pending", ...}, "identity": "pending"}``"""
        identity = self._identity(request)
        args = load(DeleteAccountRequest(), json_input(request))
        try:
            started = self.services.call(
                "accounts",
                "request_deletion",
                sub=identity.sub,
                auth_time=identity.auth_time,
                confirm=args["confirm"],
            )
        finally:
            # The lock may have committed even if the call failed: answer nothing
            # until no replica's lease can still call this account active.
            self.players.outlast(identity.sub)
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
            tags=("accounts",),
        ),
    )
    def deletion_status(self, request: Request) -> Any:
        identity = self._identity(request)
        return self.services.call("accounts", "deletion_status", sub=identity.sub)
