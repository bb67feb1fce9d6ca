"""Schemas of the card catalogue route."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.pages import page_schema

GAMES = ["quest", "terrakard", "chronovore"]


class CatalogueQuery(CamelSchema):
    game = fields.String(required=True, validate=validate.OneOf(GAMES))


class CatalogueSchema(CamelSchema):
    id = fields.UUID()
    kind = fields.String(metadata={"example": "creature"})
    game = fields.String()
    name = fields.String(metadata={"example": "Quillip"})
    rarity = fields.String(metadata={"example": "Common"})
    affinity = fields.String(allow_none=True, metadata={"example": "Wit"})
    # Quest's attributes: null for a game whose cards have none (Chronovore, TerraKard).
    reward_eligible = fields.Boolean(allow_none=True)
    evolved = fields.Boolean(allow_none=True)
    definition = fields.Dict(
        metadata={
            "description": "Stats, moves and effects; a Chronovore card's is the library's "
            "(ChronovoreCardDefinition: keywords with their definitions)"
        }
    )


CataloguePageSchema = page_schema(
    "CataloguePage", CatalogueSchema, "Every published card of the game: the whole list"
)
