"""Schemas of the public API: they validate bodies and generate the OpenAPI document."""

from typing import Any

from marshmallow import INCLUDE, Schema, fields, validate

from shared.quest_schemas import LocationClaimSchema


class ProblemSchema(Schema):
    """RFC 9457 problem details; a problem may carry extension members (RFC 9457 3.2)."""

    class Meta:
        unknown = INCLUDE  # documented as additionalProperties: true

    type = fields.String(required=True, metadata={"description": "A URI naming the problem type"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"description": "Stable machine-readable code"})
    detail = fields.String(required=True, metadata={"description": "A human explanation"})
    fields_ = fields.Dict(
        data_key="fields",
        metadata={"description": "validation_failed: the refused fields and why"},
    )
    error_id = fields.String(
        metadata={"description": "internal_error: the id to find the failure in the logs"}
    )


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
    points = fields.Integer(metadata={"description": "Progression points (permanent)"})
    registered_at = fields.AwareDateTime()
    registered_now = fields.Boolean(
        metadata={"description": "True when this call created the player"}
    )


class CreateContentRequest(Schema):
    kind = fields.String(
        required=True, validate=validate.Length(min=1, max=40), metadata={"example": "question"}
    )
    game = fields.String(
        required=True, validate=validate.Length(min=1, max=20), metadata={"example": "quest"}
    )
    body = fields.Dict(required=True, metadata={"description": "The kind's fields"})
    replaces = fields.UUID(
        allow_none=True,
        load_default=None,
        metadata={"description": "The published content this replaces"},
    )


class EditContentRequest(Schema):
    expected_version = fields.Integer(
        required=True, strict=True, data_key="expectedVersion", validate=validate.Range(min=1)
    )
    body = fields.Dict(required=True)


class TransitionRequest(Schema):
    to = fields.String(
        required=True,
        validate=validate.OneOf(["in_review", "approved", "draft", "published", "retired"]),
    )
    expected_version = fields.Integer(
        required=True, strict=True, data_key="expectedVersion", validate=validate.Range(min=1)
    )
    reason = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=1000))


class ContentListQuery(Schema):
    kind = fields.String(load_default=None, validate=validate.Length(max=40))
    state = fields.String(
        load_default=None,
        validate=validate.OneOf(["draft", "in_review", "approved", "published", "retired"]),
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 500))


class ContentSchema(Schema):
    id = fields.UUID()
    lineageId = fields.UUID()  # noqa: N815 - the wire name
    game = fields.String()
    kind = fields.String()
    state = fields.String(metadata={"example": "draft"})
    version = fields.Integer()
    body = fields.Dict()
    createdBy = fields.String()  # noqa: N815
    submittedBy = fields.String(allow_none=True)  # noqa: N815
    replaces = fields.UUID(allow_none=True)
    createdAt = fields.AwareDateTime()  # noqa: N815
    updatedAt = fields.AwareDateTime()  # noqa: N815
    publishedAt = fields.AwareDateTime(allow_none=True)  # noqa: N815
    retiredAt = fields.AwareDateTime(allow_none=True)  # noqa: N815


class AuditEntrySchema(Schema):
    version = fields.Integer()
    actor = fields.String()
    at = fields.AwareDateTime()
    action = fields.String(metadata={"example": "transition"})
    from_ = fields.String(data_key="from", allow_none=True)
    to = fields.String()
    reason = fields.String(allow_none=True)


class CatalogueQuery(Schema):
    game = fields.String(
        required=True, validate=validate.OneOf(["quest", "terrakard", "chronovore"])
    )


class CatalogueSchema(Schema):
    id = fields.UUID()
    kind = fields.String(metadata={"example": "creature"})
    game = fields.String()
    name = fields.String(metadata={"example": "Quillip"})
    rarity = fields.String(metadata={"example": "Common"})
    affinity = fields.String(allow_none=True, metadata={"example": "Wit"})
    reward_eligible = fields.Boolean()
    evolved = fields.Boolean()
    definition = fields.Dict(metadata={"description": "Stats, moves and effects"})


class JsonNumber(fields.Float):
    """A JSON number: marshmallow's Float would also take the string "51.5" (or " 5 ")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class LocationClaimRequest(LocationClaimSchema):
    """The claim as the body carries it: numbers are JSON numbers, as documented."""

    lat = JsonNumber(required=True, allow_nan=False, validate=validate.Range(-90, 90))
    lon = JsonNumber(required=True, allow_nan=False, validate=validate.Range(-180, 180))
    accuracy_m = JsonNumber(required=True, allow_nan=False, validate=validate.Range(min=0))


class StartAttemptRequest(Schema):
    location = fields.Nested(LocationClaimRequest, required=True)


class AnswerRequest(Schema):
    choice = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "An option id (multiple choice)"},
    )
    order = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        validate=validate.Length(min=1, max=10),
        metadata={"description": "Every item id, in your order (ordering)"},
    )


class AttemptSchema(Schema):
    id = fields.UUID()
    eventId = fields.UUID()  # noqa: N815
    status = fields.String(metadata={"example": "active"})
    startedAt = fields.AwareDateTime()  # noqa: N815
    deadline = fields.AwareDateTime()
    questions = fields.List(fields.Dict())
    result = fields.Dict(metadata={"description": "Score and review, once completed"})


class ProgressionQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class ProgressionEntrySchema(Schema):
    source_type = fields.String(metadata={"example": "attempt"})
    source_id = fields.UUID()
    points = fields.Integer(metadata={"example": 40})
    reason = fields.String(metadata={"example": "challenge_answers"})
    correct_count = fields.Integer(allow_none=True)
    occurred_at = fields.AwareDateTime()


class ProgressionSchema(Schema):
    player_id = fields.UUID()
    points = fields.Integer(metadata={"description": "Permanent; cannot be spent"})
    entries = fields.List(fields.Nested(ProgressionEntrySchema))


# -- account deletion (gateway/account_routes.py) ---------------------------------------


class DeleteAccountRequest(Schema):
    """Only the confirmation: the account deleted is always the caller's own."""

    confirm = fields.String(
        load_default=None,
        metadata={"description": "Exactly DELETE MY ACCOUNT", "example": "DELETE MY ACCOUNT"},
    )


class DeletionSchema(Schema):
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
