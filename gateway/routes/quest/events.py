"""Quest events open now near the player: public, no token needed."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, query_args
from gateway.problem_codes import CHALLENGE
from gateway.routes.pages import whole
from gateway.routes.quest.events_schemas import NearbyEventPage, PointQuery
from gateway.rpc import NamekoRpc


class QuestEventRoutes:
    services: NamekoRpc

    @api(
        "GET",
        "/quest/events",
        RouteDoc(
            "Published events open now near a point (?lat=&lon=), nearest first",
            NearbyEventPage,
            query=PointQuery,
            errors=(422,),
            tags=("quest",),
            codes=CHALLENGE,
        ),
    )
    async def nearby_events(self, request: Request) -> Any:
        """``GET /quest/events?lat=51.508&lon=-0.128`` -> ``{"items": [{"id": "...", "name":
        "...", "radiusM": 150, "startsAt": "...", "endsAt": "...", "distanceM": 12.5}],
        "next": null}``"""
        args = load(PointQuery(), query_args(request))
        return whole(
            await self.services.call("challenge", "nearby_events", lat=args["lat"], lon=args["lon"])
        )
