"""Payloads of the challenge RPC interface."""

from marshmallow import Schema, fields

from shared.quest_schemas import LocationClaimSchema


class EventIdSchema(Schema):
    event_id = fields.UUID(required=True)


class PublishedEventSchema(Schema):
    """An event as anyone may see it: no answer data."""

    id = fields.UUID()
    name = fields.String()
    description = fields.String()
    lat = fields.Float()
    lon = fields.Float()
    radius_m = fields.Integer()
    starts_at = fields.AwareDateTime()
    ends_at = fields.AwareDateTime()
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


class AnswerSchema(AttemptRefSchema):
    index = fields.Integer(required=True, strict=True)
    submission = fields.Dict(required=True)
