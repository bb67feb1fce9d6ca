"""Payloads of the cards RPC interface."""

from marshmallow import Schema, fields, validate

from shared.content import Game


class PlayerIdSchema(Schema):
    player_id = fields.UUID(required=True)


class CollectionSchema(Schema):
    player_id = fields.UUID()
    created_at = fields.AwareDateTime()


class GameSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(list(Game)))


class DefinitionSchema(Schema):
    """A published definition as players may see it (no authoring internals)."""

    id = fields.UUID()
    kind = fields.String()
    game = fields.String()
    name = fields.String()
    rarity = fields.String()
    affinity = fields.String(allow_none=True)
    reward_eligible = fields.Boolean()
    evolved = fields.Boolean()
    snapshot = fields.Dict(data_key="definition")
