"""Schemas of the platform routes: liveness, readiness and the internal status."""

from marshmallow import fields

from gateway.casing import CamelSchema


class HealthSchema(CamelSchema):
    status = fields.String(metadata={"example": "alive"})


class ReadySchema(CamelSchema):
    ready = fields.Boolean(required=True)
    broker = fields.String(required=True, metadata={"example": "ok"})


class StatusSchema(CamelSchema):
    ok = fields.Boolean()
    broker = fields.String(metadata={"example": "ok"})
    services = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"example": {"accounts": "ok", "cards": "unavailable"}},
    )
