"""Schemas of Chronovore's shredding and crafting (docs/chronovore.md, "The economy")."""

from __future__ import annotations

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.economy_schemas import LedgerEntrySchema


class CraftingPriceSchema(CamelSchema):
    rarity = fields.String(metadata={"example": "rare"})
    finish = fields.String(metadata={"example": "plain", "description": "plain | golden"})
    shred = fields.Integer(metadata={"example": 16, "description": "Card Fragments a shred gives"})
    shred_weakened = fields.Integer(
        metadata={"example": 80, "description": "A shred within 7 days of a weakening"}
    )
    craft = fields.Integer(metadata={"example": 80, "description": "Card Fragments a craft costs"})
    copy_limit = fields.Integer(
        metadata={"example": 2, "description": "Crafting stops at this many copies of a card"}
    )


class CraftingPricesSchema(CamelSchema):
    game = fields.String()
    currency = fields.String(metadata={"example": "fragments"})
    weakened_days = fields.Integer(metadata={"example": 7})
    prices = fields.List(
        fields.Nested(CraftingPriceSchema),
        metadata={"description": "Per rarity and finish; Diamond copies are neither"},
    )


class CraftingEntrySchema(CamelSchema):
    id = fields.UUID()
    action = fields.String(metadata={"description": "shred | craft"})
    game = fields.String()
    copy_id = fields.UUID(metadata={"description": "The copy shredded (gone) or crafted"})
    definition_id = fields.UUID()
    name = fields.String()
    rarity = fields.String()
    finish = fields.String()
    fragments = fields.Integer(metadata={"description": "Card Fragments given or spent"})
    weakened = fields.Boolean(
        metadata={"description": "A shred within 7 days of the card's weakening"}
    )
    entry = fields.Nested(LedgerEntrySchema, metadata={"description": "The fragments' entry"})
    created_at = fields.AwareDateTime()
    replayed = fields.Boolean(metadata={"description": "True for a retry with the same key"})


class CraftRequest(CamelSchema):
    definition_id = fields.UUID(
        required=True, metadata={"description": "The card's current version (the library's id)"}
    )
    finish = fields.String(
        required=True,
        validate=validate.Length(min=1, max=20),
        metadata={"example": "plain", "description": "plain or golden"},
    )
