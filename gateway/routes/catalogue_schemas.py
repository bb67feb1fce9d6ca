"""Schemas of the card catalogue route."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema

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
    reward_eligible = fields.Boolean()
    evolved = fields.Boolean()
    definition = fields.Dict(metadata={"description": "Stats, moves and effects"})
