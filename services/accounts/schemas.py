"""Payloads of the accounts RPC interface."""

from marshmallow import Schema, fields, validate

from services.accounts.domain import MAX_SUBJECT_LENGTH


class SubjectSchema(Schema):
    sub = fields.String(required=True, validate=validate.Length(min=1, max=MAX_SUBJECT_LENGTH))


class PlayerSchema(Schema):
    id = fields.UUID()
    status = fields.Function(lambda player: player.status.value)
    registered_at = fields.AwareDateTime()
    registered_now = fields.Boolean()
