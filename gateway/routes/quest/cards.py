"""A Quest player's own cards: starter, collection, decks.

The player id always comes from the verified token (through accounts), never
from the request, so no route can reach another player's cards.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import CARDS
from gateway.routes.base import WRITE_ERRORS, Caller, no_content
from gateway.routes.pages import whole
from gateway.routes.quest.cards_schemas import (
    Collection,
    CreateDeckRequest,
    Deck,
    DeckPage,
    DeleteDeckQuery,
    EditDeckRequest,
    Starter,
    StarterRequest,
)

TAGS = ("quest cards",)


class QuestCardRoutes(Caller):
    @api(
        "POST",
        "/quest/starter",
        RouteDoc(
            "Choose your starter affinity (Wit, Grit or Spark), once: 201 granted, "
            "200 the same choice again",
            Starter,
            StarterRequest,
            auth="player",
            status=201,
            errors=(400, 409, 413, 422, 503),
            also=(200,),
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def choose_starter(self, request: Request) -> tuple[int, Any]:
        """``{"affinity": "Wit"}`` -> 201 ``{"affinity": "Wit", "grantedAt": "...",
        "cards": [five owned copies]}``"""
        player_id = await self._player_id(request)
        args = load(StarterRequest(), json_input(request))
        chosen = await self.services.call(
            "cards", "choose_starter", player_id=player_id, affinity=args["affinity"]
        )
        return (201 if chosen["created"] else 200), chosen["starter"]

    @api(
        "GET",
        "/quest/starter",
        RouteDoc(
            "Your starter grant", Starter, auth="player", errors=(404,), tags=TAGS, codes=CARDS
        ),
    )
    async def get_starter(self, request: Request) -> Any:
        """``GET /quest/starter`` -> the grant as ``POST /quest/starter`` answered it"""
        return await self.services.call(
            "cards", "get_starter", player_id=await self._player_id(request)
        )

    @api(
        "GET",
        "/quest/collection",
        RouteDoc(
            "Your cards, grouped by definition, with copy counts",
            Collection,
            auth="player",
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def collection(self, request: Request) -> Any:
        """``GET /quest/collection`` -> ``{"playerId": "...", "starterAffinity": "Wit",
        "totalCopies": 5, "definitions": [{"definition": {...}, "count": 1, ...}]}``"""
        return await self.services.call(
            "cards", "player_collection", player_id=await self._player_id(request)
        )

    @api(
        "GET",
        "/quest/decks",
        RouteDoc(
            "Your saved decks, each with its cost and legality",
            DeckPage,
            auth="player",
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def list_decks(self, request: Request) -> Any:
        """``GET /quest/decks`` -> ``{"items": [{"id": "...", "name": "Morning walk",
        "cost": 7, "legal": true, ...}], "next": null}``"""
        return whole(
            await self.services.call(
                "cards", "list_decks", player_id=await self._player_id(request)
            )
        )

    @api(
        "POST",
        "/quest/decks",
        RouteDoc(
            "Save a legal deck: five of your copies, three Creatures and two Power cards, "
            "cost at most 10",
            Deck,
            CreateDeckRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def create_deck(self, request: Request) -> tuple[int, Any]:
        """``{"name": "Morning walk", "cards": ["<copy id>", ...]}`` -> 201 the deck, version 1"""
        player_id = await self._player_id(request)
        args = load(CreateDeckRequest(), json_input(request))
        created = await self.services.call(
            "cards",
            "create_deck",
            player_id=player_id,
            name=args["name"],
            cards=[str(card) for card in args["cards"]],
        )
        return 201, created

    @api(
        "GET",
        "/quest/decks/<uuid:deck_id>",
        RouteDoc("One of your decks", Deck, auth="player", errors=(404,), tags=TAGS, codes=CARDS),
    )
    async def get_deck(self, request: Request, deck_id: Any) -> Any:
        """``GET /quest/decks/<id>`` -> the deck, with ``createdAt`` and ``updatedAt``"""
        return await self.services.call(
            "cards",
            "get_deck",
            player_id=await self._player_id(request),
            deck_id=str(deck_id),
            game="quest",  # a Chronovore deck's id is not found here
        )

    @api(
        "PUT",
        "/quest/decks/<uuid:deck_id>",
        RouteDoc(
            "Rename a deck ({name}), replace its cards ({cards}), or both",
            Deck,
            EditDeckRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def edit_deck(self, request: Request, deck_id: Any) -> Any:
        """``{"expectedVersion": 1, "name": "Evening walk"}`` -> the deck at version 2"""
        player_id = await self._player_id(request)
        args = load(EditDeckRequest(), json_input(request))
        cards = args["cards"]
        return await self.services.call(
            "cards",
            "edit_deck",
            player_id=player_id,
            deck_id=str(deck_id),
            game="quest",
            expected_version=args["expected_version"],
            name=args["name"],
            cards=[str(card) for card in cards] if cards is not None else None,
        )

    @api(
        "DELETE",
        "/quest/decks/<uuid:deck_id>",
        RouteDoc(
            "Delete a deck (?expectedVersion=)",
            auth="player",
            query=DeleteDeckQuery,
            status=204,
            errors=(404, 409, 422),
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def delete_deck(self, request: Request, deck_id: Any) -> Response:
        """``DELETE /quest/decks/<id>?expectedVersion=2`` -> 204, no body"""
        player_id = await self._player_id(request)
        args = load(DeleteDeckQuery(), query_args(request))
        await self.services.call(
            "cards",
            "delete_deck",
            player_id=player_id,
            deck_id=str(deck_id),
            game="quest",
            expected_version=args["expected_version"],
        )
        return no_content()
