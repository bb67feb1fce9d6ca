"""Payloads of the cards RPC interface."""

from marshmallow import Schema, fields


class PlayerIdSchema(Schema):
    player_id = fields.UUID(required=True)


class CollectionSchema(Schema):
    player_id = fields.UUID()
    created_at = fields.AwareDateTime()
