"""The published card catalogue of each game: public, no token needed."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, query_args
from gateway.problem_codes import CARDS
from gateway.routes.catalogue_schemas import CataloguePageSchema, CatalogueQuery
from gateway.routes.pages import whole
from gateway.rpc import NamekoRpc


class CatalogueRoutes:
    services: NamekoRpc

    @api(
        "GET",
        "/cards/catalogue",
        RouteDoc(
            "The published card definitions of a game (?game=quest)",
            CataloguePageSchema,
            query=CatalogueQuery,
            errors=(422,),
            tags=("cards",),
            codes=CARDS,
        ),
    )
    async def catalogue(self, request: Request) -> Any:
        """``GET /cards/catalogue?game=quest`` -> ``{"items": [{"id": "...", "name":
        "Quillip", "rewardEligible": true, "definition": {"maxHp": 40, ...}}], "next": null}``"""
        args = load(CatalogueQuery(), query_args(request))
        return whole(await self.services.call("cards", "catalogue", game=args["game"]))
