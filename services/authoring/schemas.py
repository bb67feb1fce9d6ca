"""Payloads of the authoring RPC interface (the gateway maps HTTP onto them)."""

from marshmallow import Schema, fields, validate

from services.authoring.purge import display_actor
from shared import pages

ACTOR = fields.String(required=True, validate=validate.Length(min=1, max=255))
VERSION = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class CreateSchema(Schema):
    actor = ACTOR
    kind = fields.String(required=True, validate=validate.Length(min=1, max=40))
    game = fields.String(required=True, validate=validate.Length(min=1, max=20))
    body = fields.Raw(required=True)
    replaces = fields.UUID(allow_none=True, load_default=None)


class EditSchema(Schema):
    actor = ACTOR
    content_id = fields.UUID(required=True)
    expected_version = VERSION
    body = fields.Raw(required=True)


class TransitionSchema(Schema):
    actor = ACTOR
    content_id = fields.UUID(required=True)
    to = fields.String(required=True, validate=validate.Length(min=1, max=20))
    expected_version = VERSION
    reason = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=2000))


class ContentIdSchema(Schema):
    content_id = fields.UUID(required=True)


class ListSchema(Schema):
    kind = fields.String(allow_none=True, load_default=None)
    state = fields.String(allow_none=True, load_default=None)
    cursor = fields.String(allow_none=True, load_default=None)  # shared/pages.py judges it
    limit = fields.Integer(
        strict=True, load_default=pages.DEFAULT_PAGE, validate=validate.Range(1, pages.MAX_PAGE)
    )


class ContentSchema(Schema):
    id = fields.UUID()
    lineage_id = fields.UUID(data_key="lineageId")
    game = fields.String()
    kind = fields.String()
    state = fields.Function(lambda c: c.state.value)
    version = fields.Integer()
    body = fields.Raw()
    # A deleted account's actor is a profile-free historical id, shown as "Deleted author".
    created_by = fields.Function(lambda c: display_actor(c.created_by), data_key="createdBy")
    submitted_by = fields.Function(
        lambda c: display_actor(c.submitted_by) if c.submitted_by else None,
        data_key="submittedBy",
        allow_none=True,
    )
    replaces = fields.UUID(allow_none=True)
    created_at = fields.AwareDateTime(data_key="createdAt")
    updated_at = fields.AwareDateTime(data_key="updatedAt")
    published_at = fields.AwareDateTime(data_key="publishedAt", allow_none=True)
    retired_at = fields.AwareDateTime(data_key="retiredAt", allow_none=True)


class AuditEntrySchema(Schema):
    version = fields.Integer()
    actor = fields.Function(lambda e: display_actor(e.actor))
    at = fields.AwareDateTime()
    action = fields.String()
    from_state = fields.Function(
        lambda e: e.from_state.value if e.from_state else None, data_key="from"
    )
    to_state = fields.Function(lambda e: e.to_state.value, data_key="to")
    reason = fields.String(allow_none=True)


class LineageIdsSchema(Schema):
    lineage_ids = fields.List(fields.UUID(), required=True, validate=validate.Length(max=20))


class ReviewQueueSchema(Schema):
    actor = ACTOR
    cursor = fields.String(allow_none=True, load_default=None)  # shared/pages.py judges it
    limit = fields.Integer(
        strict=True, load_default=pages.DEFAULT_PAGE, validate=validate.Range(1, pages.MAX_PAGE)
    )


class ReviewItemSchema(Schema):
    content_id = fields.UUID(required=True)
    expected_version = VERSION


class ApproveBatchSchema(Schema):
    actor = ACTOR
    # The bound (services/authoring/review.py, MAX_BATCH) is the handler's to answer.
    items = fields.List(fields.Nested(ReviewItemSchema), required=True)
    idempotency_key = fields.String(
        allow_none=True, load_default=None, validate=validate.Length(min=1, max=64)
    )
