"""Chronovore's library (public) and a player's deck lists.

The player id always comes from the verified token (through accounts), never from the
request; a deck of another game is not found here. Saving stores a list either way: a
work in progress answers ``legal: false`` with every ``problem`` (docs/chronovore.md).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import CARDS
from gateway.routes.base import WRITE_ERRORS, Caller, no_content
from gateway.routes.chronovore.cards_schemas import (
    Collection,
    CreateChronovoreDeckRequest,
    Deck,
    DeckPage,
    DeleteChronovoreDeckQuery,
    EditChronovoreDeckRequest,
    LibraryPage,
)
from gateway.routes.pages import whole

GAME = "chronovore"
TAGS = ("chronovore cards",)


LIBRARY_FIELDS = ("id", "kind", "game", "name", "rarity", "definition")


class ChronovoreCardRoutes(Caller):
    @api(
        "GET",
        "/chronovore/library",
        RouteDoc(
            "Every Core Set card, without an account",
            LibraryPage,
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def chronovore_library(self, request: Request) -> Any:
        """``GET /chronovore/library`` -> ``{"items": [{"id": "...", "kind": "monster",
        "name": "Dreadnought", "rarity": "epic", "definition": {"cardClass": "captain", ...}}],
        "next": null}``"""
        cards = await self.services.call("cards", "catalogue", game=GAME)
        # The catalogue's Quest attributes (affinity, reward eligibility) mean nothing here.
        return whole(
            {name: card[name] for name in LIBRARY_FIELDS if name in card} for card in cards
        )

    @api(
        "GET",
        "/chronovore/collection",
        RouteDoc(
            "Your Chronovore cards, grouped by definition, with their copy ids",
            Collection,
            auth="player",
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def chronovore_collection(self, request: Request) -> Any:
        """``GET /chronovore/collection`` -> ``{"totalCopies": 155, "definitions":
        [{"definition": {"name": "Bandage Sprite", ...}, "count": 3, "copies": [...]}]}``"""
        return await self.services.call(
            "cards", "player_collection", player_id=await self._player_id(request), game=GAME
        )

    @api(
        "GET",
        "/chronovore/decks",
        RouteDoc(
            "Your Chronovore deck lists, each with its legal mark and problems",
            DeckPage,
            auth="player",
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def list_chronovore_decks(self, request: Request) -> Any:
        """``GET /chronovore/decks`` -> ``{"items": [{"id": "...", "name": "Field
        hospital", "legal": false, "problems": [{"code": "deck_size", ...}], ...}],
        "next": null}``"""
        return whole(
            await self.services.call(
                "cards", "list_decks", player_id=await self._player_id(request), game=GAME
            )
        )

    @api(
        "POST",
        "/chronovore/decks",
        RouteDoc(
            "Save a deck list of your copies, legal or a work in progress",
            Deck,
            CreateChronovoreDeckRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def create_chronovore_deck(self, request: Request) -> tuple[int, Any]:
        """``{"name": "Field hospital", "cards": ["<copy id>", ...]}`` -> 201 the deck at
        version 1 with ``legal`` and ``problems``"""
        player_id = await self._player_id(request)
        args = load(CreateChronovoreDeckRequest(), json_input(request))
        created = await self.services.call(
            "cards",
            "create_deck",
            player_id=player_id,
            game=GAME,
            name=args["name"],
            cards=[str(card) for card in args["cards"]],
        )
        return 201, created

    @api(
        "GET",
        "/chronovore/decks/<uuid:deck_id>",
        RouteDoc(
            "One of your Chronovore decks",
            Deck,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def get_chronovore_deck(self, request: Request, deck_id: Any) -> Any:
        """``GET /chronovore/decks/<id>`` -> the deck with ``legal`` and ``problems``"""
        return await self.services.call(
            "cards",
            "get_deck",
            player_id=await self._player_id(request),
            deck_id=str(deck_id),
            game=GAME,
        )

    @api(
        "PUT",
        "/chronovore/decks/<uuid:deck_id>",
        RouteDoc(
            "Rename a deck ({name}), replace its list ({cards}), or both; a new list is "
            "judged again",
            Deck,
            EditChronovoreDeckRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def edit_chronovore_deck(self, request: Request, deck_id: Any) -> Any:
        """``{"expectedVersion": 1, "cards": [...]}`` -> the deck at version 2"""
        player_id = await self._player_id(request)
        args = load(EditChronovoreDeckRequest(), json_input(request))
        cards = args["cards"]
        return await self.services.call(
            "cards",
            "edit_deck",
            player_id=player_id,
            deck_id=str(deck_id),
            game=GAME,
            expected_version=args["expected_version"],
            name=args["name"],
            cards=[str(card) for card in cards] if cards is not None else None,
        )

    @api(
        "DELETE",
        "/chronovore/decks/<uuid:deck_id>",
        RouteDoc(
            "Delete a deck (?expectedVersion=)",
            auth="player",
            query=DeleteChronovoreDeckQuery,
            status=204,
            errors=(404, 409, 422),
            tags=TAGS,
            codes=CARDS,
        ),
    )
    async def delete_chronovore_deck(self, request: Request, deck_id: Any) -> Response:
        """``DELETE /chronovore/decks/<id>?expectedVersion=2`` -> 204, no body"""
        player_id = await self._player_id(request)
        args = load(DeleteChronovoreDeckQuery(), query_args(request))
        await self.services.call(
            "cards",
            "delete_deck",
            player_id=player_id,
            deck_id=str(deck_id),
            game=GAME,
            expected_version=args["expected_version"],
        )
        return no_content()
