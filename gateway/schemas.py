"""Schemas of the public API: they validate bodies and generate the OpenAPI document."""

from marshmallow import Schema, fields


class ProblemSchema(Schema):
    type = fields.String(metadata={"description": "A URI naming the problem type"})
    title = fields.String()
    status = fields.Integer()
    code = fields.String(metadata={"description": "Stable machine-readable code"})
    detail = fields.String(metadata={"description": "A human explanation"})


class HealthSchema(Schema):
    status = fields.String(metadata={"example": "alive"})


class ReadySchema(Schema):
    ready = fields.Boolean()
    broker = fields.String(metadata={"example": "ok"})
    services = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"example": {"accounts": "ok", "cards": "unavailable"}},
    )


class MeSchema(Schema):
    id = fields.UUID(metadata={"description": "The player's id"})
    roles = fields.List(fields.String(), metadata={"example": ["player", "author"]})
    status = fields.String(metadata={"example": "active"})
    registered_at = fields.AwareDateTime()
    registered_now = fields.Boolean(
        metadata={"description": "True when this call created the player"}
    )
