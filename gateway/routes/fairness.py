"""A player's provably fair rolls (docs/fairness.md): the seeds, the rolls, the export.

The active server seed never leaves the cards service: ``/me/fairness`` shows its
SHA-256; rotating reveals it (and only then do the rolls under it carry it). The
export is the whole history (or 10,000 rolls of it, with the cursor to go on) in the
format ``deckyard verify`` and the web client's verifier read.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import camelize, load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import ECONOMY
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.economy_schemas import MAX_PAGE, CardsPageQuery
from gateway.routes.fairness_schemas import (
    ClientSeedRequest,
    ExportQuery,
    FairnessStateSchema,
    RollPageSchema,
    RotationSchema,
)

TAGS = ("fairness",)
EXPORT_PAGES = 100  # pages of 100: at most 10,000 rolls an export, then ``next``
EXPORT_FILE = "deckyard-rolls.json"


class FairnessRoutes(Caller):
    @api(
        "GET",
        "/me/fairness",
        RouteDoc(
            "Your active server seed's hash, your client seed and the next nonce",
            FairnessStateSchema,
            auth="player",
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def get_fairness(self, request: Request) -> Any:
        """``GET /me/fairness`` -> ``{"serverSeedHash": "630dcd29...", "clientSeed":
        "9f2c...", "nonce": 3, "since": "..."}`` (the first ask makes the pair)"""
        player_id = await self._player_id(request)
        return await self.services.call("cards", "fairness", player_id=player_id)

    @api(
        "PUT",
        "/me/fairness/client-seed",
        RouteDoc(
            "Set your client seed (the nonce goes on counting under the same server seed)",
            FairnessStateSchema,
            ClientSeedRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=ECONOMY,
            operation_id="setClientSeed",
        ),
    )
    async def set_client_seed(self, request: Request) -> Any:
        """``{"clientSeed": "my-client-seed"}`` -> the state with that client seed"""
        player_id = await self._player_id(request)
        args = load(ClientSeedRequest(), json_input(request))
        return await self.services.call(
            "cards", "set_client_seed", player_id=player_id, client_seed=args["client_seed"]
        )

    @api(
        "POST",
        "/me/fairness/rotate",
        RouteDoc(
            "Reveal your active server seed (every roll under it becomes verifiable); a new "
            "one, shown by its hash, takes over with the same client seed",
            RotationSchema,
            auth="player",
            tags=TAGS,
            codes=ECONOMY,
            operation_id="rotateServerSeed",
        ),
    )
    async def rotate_seed(self, request: Request) -> Any:
        """``POST /me/fairness/rotate`` -> ``{"revealed": {"serverSeed": "0001...",
        "serverSeedHash": "630d...", "rolls": 3, ...}, "active": {"serverSeedHash": "...",
        "nonce": 0, ...}}``"""
        player_id = await self._player_id(request)
        return await self.services.call("cards", "rotate_seed", player_id=player_id)

    @api(
        "GET",
        "/me/fairness/rolls",
        RouteDoc(
            "Your rolls, newest first, with everything needed to verify them (?cursor=&limit=)",
            RollPageSchema,
            auth="player",
            query=CardsPageQuery,
            errors=(422,),
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def list_rolls(self, request: Request) -> Any:
        """``GET /me/fairness/rolls?limit=1`` -> ``{"items": [{"purpose":
        "chronovore.pack.core", "serverSeedHash": "...", "serverSeed": null, "clientSeed":
        "...", "nonce": 0, "draws": [{"key": "rarity.0", "options": [...], "weights":
        [...], "outcome": "common"}, ...]}], "next": "12"}``"""
        player_id = await self._player_id(request)
        args = load(CardsPageQuery(), query_args(request))
        return await self.services.call("cards", "roll_history", player_id=player_id, **args)

    @api(
        "GET",
        "/me/fairness/export",
        RouteDoc(
            "Your whole roll history as a file for `deckyard verify` or the web verifier "
            "(up to 10,000 rolls; next continues with ?cursor=)",
            RollPageSchema,
            auth="player",
            query=ExportQuery,
            errors=(422,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="exportRolls",
        ),
    )
    async def export_rolls(self, request: Request) -> Response:
        """``GET /me/fairness/export`` -> ``{"items": [every roll, newest first], "next":
        null}`` as an attachment, ``deckyard-rolls.json``"""
        player_id = await self._player_id(request)
        cursor = load(ExportQuery(), query_args(request))["cursor"]
        items: list[Any] = []
        for _ in range(EXPORT_PAGES):
            page = await self.services.call(
                "cards", "roll_history", player_id=player_id, cursor=cursor, limit=MAX_PAGE
            )
            items += page["items"]
            cursor = page["next"]
            if cursor is None:
                break
        body = json.dumps(camelize({"items": items, "next": cursor}), separators=(",", ":"))
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{EXPORT_FILE}"'},
        )
