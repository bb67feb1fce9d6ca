"""Chronovore's shredding and crafting in Card Fragments (rules/chronovore.txt,
"Shredding and crafting"; docs/chronovore.md, "The economy").

The player is always the token's. Both writes need an ``Idempotency-Key`` (stored as
the economy routes store theirs, ``api:<key>``): a retry returns the first answer, also
for a copy shredded since. Diamond copies are neither shredded nor crafted; crafting
stops at the card's copy limit, every finish counted together.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input
from gateway.problem_codes import ECONOMY
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.chronovore.crafting_schemas import (
    CraftingEntrySchema,
    CraftingPricesSchema,
    CraftRequest,
)
from gateway.routes.economy import client_key
from gateway.routes.economy_schemas import IDEMPOTENCY_HEADER

GAME = "chronovore"
TAGS = ("chronovore economy",)


class ChronovoreCraftingRoutes(Caller):
    @api(
        "GET",
        "/chronovore/crafting",
        RouteDoc(
            "What shredding gives and crafting costs in Card Fragments, per rarity and "
            "finish (public)",
            CraftingPricesSchema,
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def get_crafting_prices(self, request: Request) -> Any:
        """``GET /chronovore/crafting`` -> ``{"currency": "fragments", "weakenedDays": 7,
        "prices": [{"rarity": "common", "finish": "plain", "shred": 1, "shredWeakened":
        5, "craft": 5, "copyLimit": 4}, ...]}``"""
        return await self.services.call("cards", "crafting_prices", game=GAME)

    @api(
        "POST",
        "/chronovore/collection/<uuid:copy_id>/shred",
        RouteDoc(
            "Shred one of your Plain or Golden copies for Card Fragments (Idempotency-Key "
            "required); a copy in a saved deck is refused",
            CraftingEntrySchema,
            auth="player",
            errors=(404, 409, 422),
            headers=(IDEMPOTENCY_HEADER,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="shredCopy",
        ),
    )
    async def shred_copy(self, request: Request, copy_id: Any) -> Any:
        """``POST /chronovore/collection/<id>/shred`` with ``Idempotency-Key: s1`` ->
        ``{"action": "shred", "rarity": "rare", "finish": "plain", "fragments": 16,
        "entry": {"balanceAfter": 16, ...}, ...}``; a copy that is not yours is 404
        ``copy_not_found``"""
        player_id = await self._player_id(request)
        return await self.services.call(
            "cards",
            "shred_copy",
            player_id=player_id,
            game=GAME,
            copy_id=str(copy_id),
            idempotency_key=client_key(request),
        )

    @api(
        "POST",
        "/chronovore/craft",
        RouteDoc(
            "Craft a Plain or Golden copy of a card with Card Fragments, up to its copy "
            "limit (201; 200 for a retry with the same Idempotency-Key)",
            CraftingEntrySchema,
            CraftRequest,
            auth="player",
            status=201,
            also=(200,),
            errors=WRITE_ERRORS,
            headers=(IDEMPOTENCY_HEADER,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="craftCopy",
        ),
    )
    async def craft_copy(self, request: Request) -> tuple[int, Any]:
        """``{"definitionId": "...", "finish": "golden"}`` with ``Idempotency-Key: c1`` ->
        201 ``{"action": "craft", "copyId": "...", "fragments": 80, ...}``; at the copy
        limit 409 ``craft_copy_limit``, short of fragments 409 ``insufficient_funds``"""
        player_id = await self._player_id(request)
        args = load(CraftRequest(), json_input(request))
        made = await self.services.call(
            "cards",
            "craft_copy",
            player_id=player_id,
            game=GAME,
            definition_id=str(args["definition_id"]),
            finish=args["finish"],
            idempotency_key=client_key(request),
        )
        return (200 if made["replayed"] else 201), made
