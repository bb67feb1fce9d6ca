"""Schemas of the authoring routes: drafts, edits, transitions, the audit trail."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.pages import PageQuery, page_schema

STATES = ["draft", "in_review", "approved", "published", "retired"]


def _expected_version() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class CreateContentRequest(CamelSchema):
    kind = fields.String(
        required=True, validate=validate.Length(min=1, max=40), metadata={"example": "question"}
    )
    game = fields.String(
        required=True, validate=validate.Length(min=1, max=20), metadata={"example": "quest"}
    )
    body = fields.Dict(
        required=True, metadata={"description": "The kind's fields, camelCase like the rest"}
    )
    replaces = fields.UUID(
        allow_none=True,
        load_default=None,
        metadata={"description": "The published content this replaces"},
    )


class EditContentRequest(CamelSchema):
    expected_version = _expected_version()
    body = fields.Dict(required=True)


class TransitionRequest(CamelSchema):
    to = fields.String(required=True, validate=validate.OneOf(STATES))
    expected_version = _expected_version()
    reason = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=1000))


class ContentListQuery(PageQuery):
    kind = fields.String(load_default=None, validate=validate.Length(max=40))
    state = fields.String(load_default=None, validate=validate.OneOf(STATES))


class ContentSchema(CamelSchema):
    id = fields.UUID()
    lineage_id = fields.UUID()
    game = fields.String()
    kind = fields.String()
    state = fields.String(metadata={"example": "draft"})
    version = fields.Integer()
    body = fields.Dict()
    created_by = fields.String()
    submitted_by = fields.String(allow_none=True)
    replaces = fields.UUID(allow_none=True)
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    published_at = fields.AwareDateTime(allow_none=True)
    retired_at = fields.AwareDateTime(allow_none=True)


class AuditEntrySchema(CamelSchema):
    version = fields.Integer()
    actor = fields.String()
    at = fields.AwareDateTime()
    action = fields.String(metadata={"example": "transition"})
    from_ = fields.String(data_key="from", allow_none=True)
    to = fields.String()
    reason = fields.String(allow_none=True)


ContentPageSchema = page_schema("ContentPage", ContentSchema, "Newest first")
AuditPageSchema = page_schema("AuditPage", AuditEntrySchema, "Oldest first: the whole trail")
