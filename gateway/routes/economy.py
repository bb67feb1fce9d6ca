"""A player's economy in a game with one (Chronovore, TerraKard): wallet, history, packs.

Every path starts with the game (``/chronovore/wallet``, ``/terrakard/packs``): the
``economy`` converter accepts only the games that keep a ledger, so any other first
segment is 404 ``route_not_found`` (documented on every route here). The player is
always the token's. Currency is never granted here: rewards and payments are
server-side decisions (the cards service's ``grant``, called by the services that earn a
player something).

A write (opening, buying) needs an ``Idempotency-Key``. The gateway stores it as
``api:<key>``, so no key a client picks can meet a key a service derives for the same
player (``match:<id>:gold``, a starter grant's) and block it (docs/economy.md).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import ECONOMY
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.economy_schemas import (
    CLIENT_KEY_PATTERN,
    IDEMPOTENCY_HEADER,
    BuyPacksRequest,
    InventorySchema,
    LedgerHistoryQuery,
    LedgerPageSchema,
    OpeningSchema,
    PackGrantSchema,
    PackOddsPageSchema,
    PackSaleSchema,
    WalletSchema,
)
from gateway.routes.pages import whole
from shared.errors import InvalidInput

TAGS = ("economy",)
CLIENT_KEY_PREFIX = "api:"
SHOP_SOURCE = ("shop", "api")  # (source_type, source_id) of a pack bought through the API
_CLIENT_KEY = re.compile(CLIENT_KEY_PATTERN)


def client_key(request: Request) -> str:
    """The request's ``Idempotency-Key``, required, as the cards service stores it."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        raise InvalidInput(
            "idempotency_key_required", "send an Idempotency-Key header with this change"
        )
    if not _CLIENT_KEY.fullmatch(key):
        raise InvalidInput(
            "invalid_idempotency_key",
            "an Idempotency-Key has 1 to 64 printable ASCII characters, no spaces",
        )
    return CLIENT_KEY_PREFIX + key


class EconomyRoutes(Caller):
    @api(
        "GET",
        "/<economy:game>/wallet",
        RouteDoc(
            "Your balance of every currency of the game",
            WalletSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def get_wallet(self, request: Request, game: str) -> Any:
        """``GET /chronovore/wallet`` -> ``{"game": "chronovore", "balances":
        [{"currency": "fragments", "balance": 0}, {"currency": "gold", "balance": 120}]}``"""
        player_id = await self._player_id(request)
        found = await self.services.call("cards", "balance", player_id=player_id, game=game)
        balances = found["balances"]
        return {
            "game": found["game"],
            "balances": [{"currency": c, "balance": balances[c]} for c in sorted(balances)],
        }

    @api(
        "GET",
        "/<economy:game>/wallet/history",
        RouteDoc(
            "Your ledger entries in the game, newest first (?currency=&cursor=&limit=)",
            LedgerPageSchema,
            auth="player",
            query=LedgerHistoryQuery,
            errors=(404, 422),
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def list_wallet_history(self, request: Request, game: str) -> Any:
        """``GET /chronovore/wallet/history?currency=gold&limit=2`` -> ``{"items":
        [{"kind": "spend", "amount": 10, "balanceAfter": 110, "reason": "buy core pack",
        ...}], "next": "41"}``"""
        player_id = await self._player_id(request)
        args = load(LedgerHistoryQuery(), query_args(request))
        return await self.services.call(
            "cards", "ledger_history", player_id=player_id, game=game, **args
        )

    @api(
        "GET",
        "/<economy:game>/packs/odds",
        RouteDoc(
            "Every pack kind of the game with its exact odds (public, before any opening)",
            PackOddsPageSchema,
            errors=(404,),
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def get_pack_odds(self, request: Request, game: str) -> Any:
        """``GET /chronovore/packs/odds`` -> ``{"items": [{"kind": "core", "cards": 5,
        "slotRarityOdds": [{"common": "...", ...}], "finishOdds": {"plain": "19/20", ...},
        "price": {"currency": "gold", "amount": 10}, ...}], "next": null}``"""
        return whole(await self.services.call("cards", "pack_odds", game=game))

    @api(
        "GET",
        "/<economy:game>/packs",
        RouteDoc(
            "Your unopened packs of the game, oldest first, and how many of each kind",
            InventorySchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=ECONOMY,
        ),
    )
    async def list_packs(self, request: Request, game: str) -> Any:
        """``GET /chronovore/packs`` -> ``{"game": "chronovore", "counts": [{"kind": "core",
        "count": 2}], "packs": [{"id": "...", "kind": "core", "name": "Core Set Pack",
        "grantedAt": "..."}]}``"""
        player_id = await self._player_id(request)
        found = await self.services.call("cards", "pack_inventory", player_id=player_id, game=game)
        counts = found["counts"]
        return {
            **found,
            "counts": [{"kind": kind, "count": counts[kind]} for kind in sorted(counts)],
        }

    @api(
        "POST",
        "/<economy:game>/packs/<uuid:pack_id>/open",
        RouteDoc(
            "Open one of your packs: its cards, persisted with their fair roll before this "
            "answer (Idempotency-Key required: a retry returns the same opening)",
            OpeningSchema,
            auth="player",
            errors=(404, 409, 422, 503),
            headers=(IDEMPOTENCY_HEADER,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="openPack",
        ),
    )
    async def open_pack(self, request: Request, game: str, pack_id: Any) -> Any:
        """``POST /chronovore/packs/<id>/open`` with ``Idempotency-Key: k1`` -> ``{"packId":
        "...", "cards": [{"name": "...", "rarity": "rare", "finish": "plain", ...}],
        "roll": {"serverSeedHash": "...", "clientSeed": "...", "nonce": 4, ...}}``; a pack
        that is not yours, or not of this game, is 404 as an unknown one"""
        player_id = await self._player_id(request)
        key = client_key(request)
        return await self.services.call(
            "cards",
            "open_pack",
            player_id=player_id,
            pack_id=str(pack_id),
            idempotency_key=key,
            game=game,
        )

    @api(
        "POST",
        "/<economy:game>/packs/<uuid:pack_id>/sell",
        RouteDoc(
            "Sell one of your unopened packs back for its full price, when its kind allows "
            "(Chronovore's Diamond pack; Idempotency-Key required: a retry returns the "
            "same sale)",
            PackSaleSchema,
            auth="player",
            errors=(404, 409, 422),
            headers=(IDEMPOTENCY_HEADER,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="sellPack",
        ),
    )
    async def sell_pack(self, request: Request, game: str, pack_id: Any) -> Any:
        """``POST /chronovore/packs/<id>/sell`` with ``Idempotency-Key: s1`` -> ``{"packId":
        "...", "kind": "diamond", "refund": {"amount": 2000, "balanceAfter": 2000, ...}}``;
        an opened or sold pack is 409 ``pack_already_opened``, a kind that is not sold
        back 422 ``pack_not_sellable``"""
        player_id = await self._player_id(request)
        key = client_key(request)
        return await self.services.call(
            "cards",
            "sell_pack",
            player_id=player_id,
            pack_id=str(pack_id),
            idempotency_key=key,
            game=game,
        )

    @api(
        "POST",
        "/<economy:game>/shop/packs",
        RouteDoc(
            "Buy packs of a kind that has a price, with the game's currency: the whole "
            "price is spent together or nothing happens (201; 200 for a retry with the "
            "same Idempotency-Key)",
            PackGrantSchema,
            BuyPacksRequest,
            auth="player",
            status=201,
            also=(200,),
            errors=WRITE_ERRORS,
            headers=(IDEMPOTENCY_HEADER,),
            tags=TAGS,
            codes=ECONOMY,
            operation_id="buyPacks",
        ),
    )
    async def buy_packs(self, request: Request, game: str) -> tuple[int, Any]:
        """``{"kind": "core", "quantity": 2}`` with ``Idempotency-Key: k2`` -> 201 ``{"packs":
        ["...", "..."], "payment": {"currency": "gold", "amount": 20, "balanceAfter": 100,
        ...}, ...}``; not enough: 409 ``insufficient_funds`` and nothing changes"""
        player_id = await self._player_id(request)
        args = load(BuyPacksRequest(), json_input(request))
        key = client_key(request)
        source_type, source_id = SHOP_SOURCE
        grant = await self.services.call(
            "cards",
            "grant_packs",
            player_id=player_id,
            game=game,
            kind=args["kind"],
            quantity=args["quantity"],
            source_type=source_type,
            source_id=source_id,
            idempotency_key=key,
            pay=True,
        )
        return (200 if grant["replayed"] else 201), grant
