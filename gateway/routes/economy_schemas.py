"""Schemas of a player's economy in one game: wallet, ledger history, packs, the shop.

Answers are the cards service's (docs/economy.md), camelCase; where the service keys a
map by data (a currency, a pack kind) the API lists it instead (``{"currency": "gold",
"balance": 12}``), since member names are camelCased and values never are.
"""

from __future__ import annotations

from marshmallow import fields, validate

from gateway.casing import CamelSchema, camel_schema
from gateway.routes.pages import page_schema
from shared.quest_card_schemas import CardKeywordSchema

MAX_PAGE = 100  # the cards service's largest page
MAX_CLIENT_KEY = 64  # the gateway prefixes it (``api:``) within the service's 80
CLIENT_KEY_PATTERN = r"^[\x21-\x7e]{1,64}$"  # printable ASCII, no spaces

IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": True,
    "description": "Your key for this change (1-64 printable ASCII characters): the same "
    "key again returns the first answer and changes nothing; another change under it is "
    "422 idempotency_key_reused",
    "schema": {"type": "string", "pattern": CLIENT_KEY_PATTERN},
}


class CardsPageQuery(CamelSchema):
    # The cards service's lists (ledger, rolls): its cursors are shorter than the battle
    # service's (services/cards/pages.py). Query parameters are text: "20" is 20.
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "The previous page's next"},
    )
    limit = fields.Integer(
        load_default=50,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": "At most 100 (default 50)"},
    )


class LedgerHistoryQuery(CardsPageQuery):
    currency = fields.String(
        load_default=None,
        validate=validate.Regexp(r"^[a-z][a-z0-9_]{0,29}$"),
        metadata={"example": "gold", "description": "Only this currency's entries"},
    )


class BalanceSchema(CamelSchema):
    currency = fields.String(metadata={"example": "gold"})
    balance = fields.Integer(metadata={"example": 120})


class WalletSchema(CamelSchema):
    game = fields.String(metadata={"example": "chronovore"})
    balances = fields.List(
        fields.Nested(BalanceSchema),
        metadata={"description": "Every currency of the game (0 when never granted)"},
    )


class LedgerEntrySchema(CamelSchema):
    id = fields.UUID()
    game = fields.String()
    currency = fields.String(metadata={"example": "gold"})
    kind = fields.String(metadata={"description": "grant | spend"})
    amount = fields.Integer(metadata={"description": "Always positive; kind gives the sign"})
    balance_after = fields.Integer()
    reason = fields.String(metadata={"example": "buy core pack"})
    idempotency_key = fields.String()
    created_at = fields.AwareDateTime()
    replayed = fields.Boolean(metadata={"description": "True when a retry found this entry"})


class LedgerPageSchema(CamelSchema):
    items = fields.List(fields.Nested(LedgerEntrySchema), metadata={"description": "Newest first"})
    next = fields.String(
        allow_none=True, metadata={"description": "The cursor of the next page; null at the end"}
    )


class PackPriceSchema(CamelSchema):
    currency = fields.String(metadata={"example": "gold"})
    amount = fields.Integer(metadata={"example": 10})


class GuaranteedSlotSchema(CamelSchema):
    index = fields.Integer()
    rarity_weights = fields.Dict(keys=fields.String(), values=fields.Integer())


class PackOddsSchema(CamelSchema):
    game = fields.String()
    kind = fields.String(metadata={"example": "core"})
    name = fields.String(metadata={"example": "Core Set Pack"})
    cards = fields.Integer(metadata={"description": "Cards in one pack"})
    rarities = fields.List(fields.String(), metadata={"description": "Lowest first"})
    rarity_weights = fields.Dict(keys=fields.String(), values=fields.Integer())
    finish_weights = fields.Dict(keys=fields.String(), values=fields.Integer())
    guaranteed_slots = fields.List(fields.Nested(GuaranteedSlotSchema))
    floor = fields.String(
        allow_none=True,
        metadata={"description": "If no card reaches it, one card drawn uniformly becomes it"},
    )
    card_kinds = fields.List(fields.String())
    slot_rarity_odds = fields.List(
        fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={"description": "Per slot, each rarity's exact probability as a fraction"},
    )
    finish_odds = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"example": {"plain": "19/20"}}
    )
    price = fields.Nested(
        PackPriceSchema,
        allow_none=True,
        metadata={"description": "Present when the kind can be bought in the shop"},
    )
    daily_group = fields.String(allow_none=True)
    sell_back = fields.Boolean(
        metadata={"description": "Present and true when an unopened pack sells back for its price"}
    )


class PackCountSchema(CamelSchema):
    kind = fields.String(metadata={"example": "core"})
    count = fields.Integer()


class UnopenedPackSchema(CamelSchema):
    id = fields.UUID()
    kind = fields.String()
    name = fields.String()
    granted_at = fields.AwareDateTime()


class InventorySchema(CamelSchema):
    game = fields.String()
    counts = fields.List(fields.Nested(PackCountSchema))
    packs = fields.List(fields.Nested(UnopenedPackSchema), metadata={"description": "Oldest first"})


class OpenedCardSchema(CamelSchema):
    owned_card_id = fields.UUID()
    definition_id = fields.UUID()
    name = fields.String()
    kind = fields.String()
    rarity = fields.String()
    finish = fields.String(metadata={"example": "golden"})
    keywords = fields.List(
        fields.Nested(camel_schema(CardKeywordSchema)),
        metadata={
            "description": "Chronovore: each keyword the card shows, with its definition "
            "(absent for other games)"
        },
    )


class RollReceiptSchema(CamelSchema):
    server_seed_hash = fields.String(metadata={"description": "SHA-256 of the server seed"})
    client_seed = fields.String()
    nonce = fields.Integer()
    purpose = fields.String(metadata={"example": "chronovore.pack.core"})


class OpeningSchema(CamelSchema):
    pack_id = fields.UUID()
    game = fields.String()
    kind = fields.String()
    opened_at = fields.AwareDateTime()
    cards = fields.List(fields.Nested(OpenedCardSchema))
    roll = fields.Nested(
        RollReceiptSchema,
        allow_none=True,
        metadata={"description": "The fair roll; the full record is in /me/fairness/rolls"},
    )
    replayed = fields.Boolean(metadata={"description": "True for a retry with the same key"})


class BuyPacksRequest(CamelSchema):
    kind = fields.String(
        required=True, validate=validate.Length(min=1, max=40), metadata={"example": "core"}
    )
    quantity = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1, max=100))


class GrantSourceSchema(CamelSchema):
    type = fields.String(metadata={"example": "shop"})
    id = fields.String()


class PackGrantSchema(CamelSchema):
    id = fields.UUID()
    game = fields.String()
    kind = fields.String()
    quantity = fields.Integer()
    source = fields.Nested(GrantSourceSchema)
    packs = fields.List(fields.UUID(), metadata={"description": "The new unopened packs"})
    payment = fields.Nested(
        LedgerEntrySchema, allow_none=True, metadata={"description": "The whole price, spent"}
    )
    granted_at = fields.AwareDateTime()
    replayed = fields.Boolean()


class PackSaleSchema(CamelSchema):
    pack_id = fields.UUID()
    game = fields.String()
    kind = fields.String(metadata={"example": "diamond"})
    sold_at = fields.AwareDateTime()
    refund = fields.Nested(LedgerEntrySchema, metadata={"description": "The full price, back"})
    replayed = fields.Boolean(metadata={"description": "True for a retry with the same key"})


PackOddsPageSchema = page_schema("PackOddsPage", PackOddsSchema, "Every pack kind of the game")
