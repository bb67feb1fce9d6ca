"""The player's own Quest cards and progression: starter, collection, decks, points.

A mixin of the gateway service, kept apart so that each module stays readable.
The player id always comes from the verified token (through accounts), never
from the request, so no route can reach another player's cards.
"""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Request, Response

from gateway.entrypoints import RouteDoc, api, json_input, query_args
from gateway.routes import PlayerRoutes
from gateway.schemas import ProgressionQuery, ProgressionSchema
from shared.quest_card_schemas import (
    CollectionSchema,
    CreateDeckRequest,
    DeckSchema,
    DeleteDeckQuery,
    EditDeckRequest,
    StarterRequest,
    StarterSchema,
)
from shared.schemas import load

WRITE_ERRORS = (400, 404, 409, 413, 422)


def no_content() -> Response:
    """204: no body, so no Content-Type either (werkzeug would add text/plain)."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


class CardRoutes(PlayerRoutes):
    # -- starter --------------------------------------------------------------------------

    @api(
        "POST",
        "/quest/starter",
        RouteDoc(
            "Choose your starter affinity (Wit, Grit or Spark), once: 201 granted, "
            "200 the same choice again",
            StarterSchema,
            StarterRequest,
            auth="player",
            status=201,
            errors=(400, 409, 413, 422, 503),
            also=(200,),
            tags=("quest cards",),
        ),
    )
    def choose_starter(self, request: Request) -> tuple[int, Any]:
        """``{"affinity": "Wit"}`` -> 201 ``{"affinity": "Wit", "cards": [five owned copies]}``"""
        player_id = self._player_id(request)
        args = load(StarterRequest(), json_input(request))
        chosen = self.services.call(
            "cards", "choose_starter", player_id=player_id, affinity=args["affinity"]
        )
        return (201 if chosen["created"] else 200), chosen["starter"]

    @api(
        "GET",
        "/quest/starter",
        RouteDoc(
            "Your starter grant", StarterSchema, auth="player", errors=(404,), tags=("quest cards",)
        ),
    )
    def get_starter(self, request: Request) -> Any:
        return self.services.call("cards", "get_starter", player_id=self._player_id(request))

    # -- collection -----------------------------------------------------------------------

    @api(
        "GET",
        "/quest/collection",
        RouteDoc(
            "Your cards, grouped by definition, with copy counts",
            CollectionSchema,
            auth="player",
            tags=("quest cards",),
        ),
    )
    def collection(self, request: Request) -> Any:
        return self.services.call("cards", "player_collection", player_id=self._player_id(request))

    # -- decks ----------------------------------------------------------------------------

    @api(
        "GET",
        "/quest/decks",
        RouteDoc(
            "Your saved decks, each with its cost and legality",
            DeckSchema,
            many=True,
            auth="player",
            tags=("quest cards",),
        ),
    )
    def list_decks(self, request: Request) -> Any:
        return self.services.call("cards", "list_decks", player_id=self._player_id(request))

    @api(
        "POST",
        "/quest/decks",
        RouteDoc(
            "Save a legal deck: five of your copies, three Creatures and two Power cards, "
            "cost at most 10",
            DeckSchema,
            CreateDeckRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            tags=("quest cards",),
        ),
    )
    def create_deck(self, request: Request) -> tuple[int, Any]:
        """``{"name": "Morning walk", "cards": ["<copy id>", ...]}`` -> 201 the deck, version 1"""
        player_id = self._player_id(request)
        args = load(CreateDeckRequest(), json_input(request))
        created = self.services.call(
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
        RouteDoc(
            "One of your decks", DeckSchema, auth="player", errors=(404,), tags=("quest cards",)
        ),
    )
    def get_deck(self, request: Request, deck_id: Any) -> Any:
        return self.services.call(
            "cards", "get_deck", player_id=self._player_id(request), deck_id=str(deck_id)
        )

    @api(
        "PUT",
        "/quest/decks/<uuid:deck_id>",
        RouteDoc(
            "Rename a deck ({name}), replace its cards ({cards}), or both",
            DeckSchema,
            EditDeckRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=("quest cards",),
        ),
    )
    def edit_deck(self, request: Request, deck_id: Any) -> Any:
        """``{"expectedVersion": 1, "name": "Evening walk"}`` -> the deck at version 2"""
        player_id = self._player_id(request)
        args = load(EditDeckRequest(), json_input(request))
        cards = args["cards"]
        return self.services.call(
            "cards",
            "edit_deck",
            player_id=player_id,
            deck_id=str(deck_id),
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
            tags=("quest cards",),
        ),
    )
    def delete_deck(self, request: Request, deck_id: Any) -> Response:
        player_id = self._player_id(request)
        args = load(DeleteDeckQuery(), query_args(request))
        self.services.call(
            "cards",
            "delete_deck",
            player_id=player_id,
            deck_id=str(deck_id),
            expected_version=args["expected_version"],
        )
        return no_content()

    # -- progression ----------------------------------------------------------------------

    @api(
        "GET",
        "/me/progression",
        RouteDoc(
            "Your progression points and where they came from, newest first (?limit=)",
            ProgressionSchema,
            auth="player",
            query=ProgressionQuery,
            errors=(422,),
            tags=("accounts",),
        ),
    )
    def progression(self, request: Request) -> Any:
        player_id = self._player_id(request)
        args = load(ProgressionQuery(), query_args(request))
        return self.services.call(
            "accounts", "progression", player_id=player_id, limit=args["limit"]
        )
