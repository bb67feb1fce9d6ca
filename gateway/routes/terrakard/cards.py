"""TerraKard's collection, attack decks and defense plans (docs/terrakard.md, "Hosting").

The level that sets the budgets is read from battle's arena (``terrakard_level``: from
TerraKard experience) for every request and passed to cards: a level-up counts at once.
The player id always comes from the verified token.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import CARDS
from gateway.routes.base import Caller, no_content
from gateway.routes.pages import whole
from gateway.routes.quest.cards_schemas import DeleteDeckQuery
from gateway.routes.terrakard.schemas import (
    AttackDeckPageSchema,
    AttackDeckSchema,
    CreateAttackDeckRequest,
    EditAttackDeckRequest,
    EditPlanRequest,
    PlanPageSchema,
    PlanRequest,
    PlanSchema,
    TerraKardCollectionSchema,
)

GAME = "terrakard"
TAGS = ("terrakard",)
WRITE_ERRORS = (400, 404, 409, 413, 422, 503)


def _plan_args(args: dict[str, Any]) -> dict[str, Any]:
    condition = {k: v for k, v in args["condition"].items() if v is not None}
    return {
        "name": args["name"],
        "rounds": [str(c) for c in args["rounds"]],
        "reserve": str(args["reserve"]),
        "condition": condition,
        "posture": args["posture"],
        "activate": args["activate"],
    }


class TerraKardCardRoutes(Caller):
    async def _level(self, player_id: str) -> int:
        found = await self.services.call("battle", "terrakard_level", player_id=player_id)
        return int(found["level"])

    async def _player_level(self, request: Request) -> tuple[str, int]:
        player_id = await self._player_id(request)
        return player_id, await self._level(player_id)

    @api(
        "GET",
        "/terrakard/collection",
        RouteDoc("Your TerraKard cards and your level's budgets", TerraKardCollectionSchema,
                 auth="player", tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def get_terrakard_collection(self, request: Request) -> Any:
        """-> ``{"started": true, "budget": {"level": 1, "attack": 12, "defense": 9},
        "activePlanId": null, "cards": [{"id": "...", "name": "Eiffel Tower",
        "category": "Arts and culture", "rarity": "Rare", "cost": 3, "atk": 61, "def": 58}]}``"""
        player_id, level = await self._player_level(request)
        return await self.services.call(
            "cards", "terrakard_collection", player_id=player_id, level=level
        )

    @api(
        "POST",
        "/terrakard/collection/start",
        RouteDoc("Claim your starting collection (once; again: the collection)",
                 TerraKardCollectionSchema, auth="player", errors=WRITE_ERRORS, tags=TAGS,
                 codes=CARDS),
    )  # fmt: skip
    async def start_terrakard_collection(self, request: Request) -> Any:
        """``{}`` -> the collection with 8 Common and 2 Uncommon cards"""
        player_id, level = await self._player_level(request)
        return await self.services.call(
            "cards", "terrakard_start", player_id=player_id, level=level
        )

    @api(
        "GET",
        "/terrakard/decks",
        RouteDoc("Your attack decks", AttackDeckPageSchema, auth="player", tags=TAGS,
                 codes=CARDS),
    )  # fmt: skip
    async def list_terrakard_decks(self, request: Request) -> Any:
        """-> ``{"items": [{"id": "...", "name": "First", "version": 1, "cost": 8,
        "budget": 12, "legal": true, "problems": [], "cards": [...]}], "next": null}``"""
        player_id, level = await self._player_level(request)
        return whole(
            await self.services.call("cards", "terrakard_decks", player_id=player_id, level=level)
        )

    @api(
        "POST",
        "/terrakard/decks",
        RouteDoc("Save an attack deck: 8 cards within your level's budget", AttackDeckSchema,
                 CreateAttackDeckRequest, auth="player", status=201, errors=WRITE_ERRORS, tags=TAGS,
                 codes=CARDS),
    )  # fmt: skip
    async def create_terrakard_deck(self, request: Request) -> tuple[int, Any]:
        """``{"name": "First", "cards": ["<copy id>", ... eight]}`` -> 201 the deck"""
        player_id, level = await self._player_level(request)
        args = load(CreateAttackDeckRequest(), json_input(request))
        deck = await self.services.call(
            "cards", "terrakard_save_deck", player_id=player_id, level=level,
            name=args["name"], cards=[str(c) for c in args["cards"]],
        )  # fmt: skip
        return 201, deck

    @api(
        "PATCH",
        "/terrakard/decks/<uuid:attack_deck_id>",
        RouteDoc("Rename a deck or change its cards, at the version you saw", AttackDeckSchema,
                 EditAttackDeckRequest, auth="player", errors=WRITE_ERRORS, tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def edit_terrakard_deck(self, request: Request, attack_deck_id: Any) -> Any:
        """``{"expectedVersion": 1, "cards": [...]}`` -> the deck at version 2"""
        player_id, level = await self._player_level(request)
        args = load(EditAttackDeckRequest(), json_input(request))
        cards = None if args["cards"] is None else [str(c) for c in args["cards"]]
        return await self.services.call(
            "cards", "terrakard_save_deck", player_id=player_id, level=level,
            deck_id=str(attack_deck_id), expected_version=args["expected_version"],
            name=args["name"], cards=cards,
        )  # fmt: skip

    @api(
        "DELETE",
        "/terrakard/decks/<uuid:attack_deck_id>",
        RouteDoc("Delete a deck (?expectedVersion=)", auth="player", query=DeleteDeckQuery,
                 status=204, errors=(404, 409, 422), tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def delete_terrakard_deck(self, request: Request, attack_deck_id: Any) -> Response:
        """``DELETE /terrakard/decks/<id>?expectedVersion=2`` -> 204"""
        player_id = await self._player_id(request)
        args = load(DeleteDeckQuery(), query_args(request))
        await self.services.call(
            "cards", "terrakard_delete_deck", player_id=player_id, ref_id=str(attack_deck_id),
            expected_version=args["expected_version"],
        )  # fmt: skip
        return no_content()

    @api(
        "GET",
        "/terrakard/plans",
        RouteDoc("Your defense plans (one is active)", PlanPageSchema, auth="player",
                 tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def list_terrakard_plans(self, request: Request) -> Any:
        """-> ``{"items": [{"id": "...", "active": true, "rounds": [...5], "reserve":
        {...}, "condition": {"trigger": "low_hp", "category": null}, "posture": "cautious"}],
        "next": null}``"""
        player_id, level = await self._player_level(request)
        return whole(
            await self.services.call("cards", "terrakard_plans", player_id=player_id, level=level)
        )

    @api(
        "POST",
        "/terrakard/plans",
        RouteDoc("Save a defense plan (active if asked); it counts from the next attack",
                 PlanSchema, PlanRequest, auth="player", status=201, errors=WRITE_ERRORS,
                 tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def create_terrakard_plan(self, request: Request) -> tuple[int, Any]:
        """``{"name": "Wall", "rounds": [five copy ids], "reserve": "<copy id>",
        "condition": {"trigger": "category", "category": "History"}, "posture":
        "cautious", "activate": true}`` -> 201 the plan"""
        player_id, level = await self._player_level(request)
        args = load(PlanRequest(), json_input(request))
        plan = await self.services.call(
            "cards", "terrakard_save_plan", player_id=player_id, level=level, **_plan_args(args)
        )
        return 201, plan

    @api(
        "PUT",
        "/terrakard/plans/<uuid:plan_id>",
        RouteDoc("Replace a plan at the version you saw; it counts from the next attack",
                 PlanSchema, EditPlanRequest, auth="player", errors=WRITE_ERRORS, tags=TAGS,
                 codes=CARDS),
    )  # fmt: skip
    async def edit_terrakard_plan(self, request: Request, plan_id: Any) -> Any:
        """``{"expectedVersion": 1, "name": ..., "rounds": ..., ...}`` -> the plan"""
        player_id, level = await self._player_level(request)
        args = load(EditPlanRequest(), json_input(request))
        return await self.services.call(
            "cards", "terrakard_save_plan", player_id=player_id, level=level,
            plan_id=str(plan_id), expected_version=args["expected_version"], **_plan_args(args),
        )  # fmt: skip

    @api(
        "POST",
        "/terrakard/plans/<uuid:plan_id>/activate",
        RouteDoc("Make a legal plan your active defense", PlanSchema, auth="player",
                 errors=WRITE_ERRORS, tags=TAGS, codes=CARDS,
                 operation_id="activateTerrakardPlan"),
    )  # fmt: skip
    async def activate_terrakard_plan(self, request: Request, plan_id: Any) -> Any:
        """``{}`` -> the plan, ``"active": true``"""
        player_id, level = await self._player_level(request)
        return await self.services.call(
            "cards", "terrakard_activate_plan", player_id=player_id, plan_id=str(plan_id),
            level=level,
        )  # fmt: skip

    @api(
        "DELETE",
        "/terrakard/plans/<uuid:plan_id>",
        RouteDoc("Delete a plan (?expectedVersion=); without an active plan the automatic "
                 "plan defends", auth="player", query=DeleteDeckQuery, status=204,
                 errors=(404, 409, 422), tags=TAGS, codes=CARDS),
    )  # fmt: skip
    async def delete_terrakard_plan(self, request: Request, plan_id: Any) -> Response:
        """``DELETE /terrakard/plans/<id>?expectedVersion=1`` -> 204"""
        player_id = await self._player_id(request)
        args = load(DeleteDeckQuery(), query_args(request))
        await self.services.call(
            "cards", "terrakard_delete_plan", player_id=player_id, ref_id=str(plan_id),
            expected_version=args["expected_version"],
        )  # fmt: skip
        return no_content()
