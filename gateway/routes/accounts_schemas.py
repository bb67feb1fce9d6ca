"""Schemas of the account routes: the caller, their progression, their deletion."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema


class MeSchema(CamelSchema):
    id = fields.UUID(metadata={"description": "The player's id"})
    roles = fields.List(fields.String(), metadata={"example": ["player", "author"]})
    status = fields.String(metadata={"example": "active"})
    points = fields.Integer(metadata={"description": "Progression points (permanent)"})
    registered_at = fields.AwareDateTime()
    registered_now = fields.Boolean(
        metadata={"description": "True when this call created the player"}
    )


class ProgressionQuery(CamelSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class ProgressionEntrySchema(CamelSchema):
    source_type = fields.String(metadata={"example": "attempt"})
    source_id = fields.UUID()
    points = fields.Integer(metadata={"example": 40})
    reason = fields.String(metadata={"example": "challenge_answers"})
    correct_count = fields.Integer(allow_none=True)
    occurred_at = fields.AwareDateTime()


class ProgressionSchema(CamelSchema):
    player_id = fields.UUID()
    points = fields.Integer(metadata={"description": "Permanent; cannot be spent"})
    entries = fields.List(fields.Nested(ProgressionEntrySchema))


class DeleteAccountRequest(CamelSchema):
    """Only the confirmation: the account deleted is always the caller's own."""

    confirm = fields.String(
        load_default=None,
        metadata={"description": "Exactly DELETE MY ACCOUNT", "example": "DELETE MY ACCOUNT"},
    )


class DeletionSchema(CamelSchema):
    id = fields.UUID(metadata={"description": "The deletion (and later its receipt)"})
    status = fields.String(
        metadata={
            "description": "purging_data, deleting_identity or completed",
            "example": "purging_data",
        }
    )
    requested_at = fields.AwareDateTime()
    completed_at = fields.AwareDateTime(allow_none=True)
    services = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"example": {"cards": "purged", "battle": "pending"}},
    )
    identity = fields.String(
        metadata={"description": "The Auth0 user: pending or deleted", "example": "pending"}
    )
