"""Payloads of the challenge RPC interface."""

from marshmallow import Schema, fields, validate

from shared.quest_schemas import EventSchema, LocationClaimSchema


class EventIdSchema(Schema):
    event_id = fields.UUID(required=True)


class PublishedEventSchema(EventSchema):
    """A published event with its references: still no answer data."""

    challenge_id = fields.UUID()
    reward_definition_id = fields.UUID()
    retired_at = fields.AwareDateTime(allow_none=True)


class StartAttemptSchema(Schema):
    player_id = fields.UUID(required=True)
    event_id = fields.UUID(required=True)
    location = fields.Nested(LocationClaimSchema, required=True)


class AttemptRefSchema(Schema):
    player_id = fields.UUID(required=True)
    attempt_id = fields.UUID(required=True)


class AttemptPageSchema(Schema):
    player_id = fields.UUID(required=True)
    cursor = fields.String(load_default=None, allow_none=True)
    limit = fields.Integer(load_default=50, strict=True, validate=validate.Range(min=1, max=100))


class AnswerSchema(AttemptRefSchema):
    index = fields.Integer(required=True, strict=True)
    submission = fields.Dict(required=True)
