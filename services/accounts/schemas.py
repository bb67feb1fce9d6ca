"""Payloads of the accounts RPC interface."""

from marshmallow import Schema, fields, validate

from services.accounts.domain import (
    DEFAULT_HISTORY_LIMIT,
    MAX_HISTORY_LIMIT,
    MAX_SUBJECT_LENGTH,
    Reason,
    SourceType,
)


class SubjectSchema(Schema):
    sub = fields.String(required=True, validate=validate.Length(min=1, max=MAX_SUBJECT_LENGTH))


class PlayerSchema(Schema):
    id = fields.UUID()
    status = fields.Function(lambda player: player.status.value)
    registered_at = fields.AwareDateTime()
    registered_now = fields.Boolean()
    points = fields.Integer()


class ProgressionQuerySchema(Schema):
    player_id = fields.UUID(required=True)
    limit = fields.Integer(
        strict=True,
        load_default=DEFAULT_HISTORY_LIMIT,
        validate=validate.Range(1, MAX_HISTORY_LIMIT),
    )


class ProgressionEntrySchema(Schema):
    source_type = fields.Enum(SourceType, by_value=True)
    source_id = fields.UUID()
    points = fields.Integer()
    reason = fields.Enum(Reason, by_value=True)
    correct_count = fields.Integer(allow_none=True)  # attempts only; null for matches
    occurred_at = fields.AwareDateTime()


class ProgressionSchema(Schema):
    player_id = fields.UUID()
    points = fields.Integer()
    entries = fields.List(fields.Nested(ProgressionEntrySchema))


class DeletionRequestSchema(Schema):
    sub = fields.String(required=True, validate=validate.Length(min=1, max=MAX_SUBJECT_LENGTH))
    auth_time = fields.Integer(strict=True, allow_none=True, load_default=None)
    confirm = fields.String(allow_none=True, load_default=None)


class DeletionViewSchema(Schema):
    id = fields.UUID()
    status = fields.Function(lambda view: view.status.value)
    requested_at = fields.AwareDateTime()
    completed_at = fields.AwareDateTime(allow_none=True)
    services = fields.Dict(keys=fields.String(), values=fields.String())
    identity = fields.String()
