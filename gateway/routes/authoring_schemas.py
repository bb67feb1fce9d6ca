"""Schemas of the authoring routes: drafts, edits, transitions, the audit trail."""

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

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


# -- review at volume (services/authoring/review.py) ------------------------------------

MAX_BATCH = 100  # the authoring service's bound on a batch (a unit test keeps them equal)
# The problems a batch answers per item, each as a single approval would have answered it.
REVIEW_ITEM_CODES = {
    403: ("own_submission", "account_locked"),
    404: ("content_not_found",),
    409: ("not_in_review", "stale_version", "not_ready"),
    503: ("transaction_conflict", "database_unavailable"),
}


class ReviewItemRequest(CamelSchema):
    id = fields.UUID(required=True, metadata={"description": "Content in review"})
    expected_version = _expected_version()


class ApproveBatchRequest(CamelSchema):
    items = fields.List(
        fields.Nested(ReviewItemRequest),
        required=True,
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={"description": f"1 to {MAX_BATCH} items, each once"},
    )

    @validates_schema
    def each_item_once(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [item["id"] for item in data.get("items", [])]
        if len(set(ids)) != len(ids):
            raise ValidationError("name each item once", "items")


class ItemProblemSchema(CamelSchema):
    """The problem a single approval of this item would have answered."""

    status = fields.Integer(
        validate=validate.OneOf(sorted(REVIEW_ITEM_CODES)), metadata={"example": 409}
    )
    code = fields.String(
        validate=validate.OneOf(sorted({c for codes in REVIEW_ITEM_CODES.values() for c in codes})),
        metadata={"example": "stale_version"},
    )
    detail = fields.String()
    current_version = fields.Integer(metadata={"description": "With stale_version"})
    state = fields.String(metadata={"description": "With not_in_review: the state it is in"})
    problems = fields.List(fields.String(), metadata={"description": "With not_ready"})


class ApprovalOutcomeSchema(CamelSchema):
    id = fields.UUID(required=True)
    outcome = fields.String(required=True, validate=validate.OneOf(["approved", "refused"]))
    state = fields.String(
        metadata={"description": "Approved: its new state", "example": "approved"}
    )
    version = fields.Integer(metadata={"description": "Approved: its new version"})
    problem = fields.Nested(ItemProblemSchema, metadata={"description": "Refused: why"})


ReviewQueuePageSchema = page_schema(
    "ReviewQueuePage",
    ContentSchema,
    "Oldest submission first: content in review that you did not submit",
)
ApprovalOutcomePageSchema = page_schema(
    "ApprovalOutcomePage",
    ApprovalOutcomeSchema,
    "One outcome per item, in the order of the request",
    approved=fields.Integer(required=True, metadata={"description": "Items approved"}),
    refused=fields.Integer(required=True, metadata={"description": "Items refused"}),
)


# -- the editor's forms (services/authoring/forms.py) ------------------------------------

FIELD_TYPES = [
    "text",
    "integer",
    "number",
    "boolean",
    "choice",
    "datetime",
    "id",
    "object",
    "list",
    "json",
]


class FormFieldSchema(CamelSchema):
    """One field of a kind's body, as authoring validates it."""

    name = fields.String(required=True, metadata={"example": "maxPower"})
    label = fields.String(required=True, metadata={"example": "Max power"})
    type = fields.String(
        required=True,
        validate=validate.OneOf(FIELD_TYPES),
        metadata={
            "description": "json: the game's vocabulary (effects, rewards) as JSON text; "
            "object: its fields; list: its item"
        },
    )
    required = fields.Boolean(required=True)
    nullable = fields.Boolean(required=True)
    private = fields.Boolean(
        required=True, metadata={"description": "Never shown to players (answer keys)"}
    )
    default = fields.Raw(allow_none=True, metadata={"description": "When left out"})
    min = fields.Float(allow_none=True)
    max = fields.Float(allow_none=True)
    min_length = fields.Integer(allow_none=True)
    max_length = fields.Integer(allow_none=True)
    min_items = fields.Integer(allow_none=True)
    max_items = fields.Integer(allow_none=True)
    multiline = fields.Boolean(metadata={"description": "Long text"})
    pattern = fields.String(metadata={"description": "A regular expression the text matches"})
    choices = fields.List(fields.String(), metadata={"description": "type choice: the values"})
    fields_ = fields.List(
        fields.Nested(lambda: FormFieldSchema()),
        data_key="fields",
        metadata={"description": "type object: its fields"},
    )
    item = fields.Nested(lambda: FormFieldSchema(), metadata={"description": "type list"})


class KindFormSchema(CamelSchema):
    game = fields.String(required=True, metadata={"example": "quest"})
    kind = fields.String(required=True, metadata={"example": "creature"})
    fields_ = fields.List(fields.Nested(FormFieldSchema), required=True, data_key="fields")


KindFormPageSchema = page_schema("KindFormPage", KindFormSchema, "Every kind of every game")
