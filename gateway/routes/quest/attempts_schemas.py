"""Schemas of Quest attempts: starting one at an event, answering, reading it."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.quest.events_schemas import LocationClaimRequest


class StartAttemptRequest(CamelSchema):
    location = fields.Nested(LocationClaimRequest, required=True)


class AnswerRequest(CamelSchema):
    choice = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "An option id (multiple choice)"},
    )
    order = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        validate=validate.Length(min=1, max=10),
        metadata={"description": "Every item id, in your order (ordering)"},
    )


class AttemptSchema(CamelSchema):
    id = fields.UUID()
    event_id = fields.UUID()
    status = fields.String(metadata={"example": "active"})
    started_at = fields.AwareDateTime()
    deadline = fields.AwareDateTime()
    questions = fields.List(fields.Dict())
    result = fields.Dict(metadata={"description": "Score and review, once completed"})


class AttemptPageQuery(CamelSchema):
    # Query parameters are text: "20" is the number 20.
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=60),
        metadata={"description": "The previous page's next"},
    )
    limit = fields.Integer(
        load_default=50,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "At most 100 (default 50)"},
    )


class AttemptSummarySchema(CamelSchema):
    id = fields.UUID()
    event_id = fields.UUID()
    event_name = fields.String(
        allow_none=True, metadata={"description": "null once the event is no longer known"}
    )
    status = fields.String(metadata={"description": "active | completed"})
    started_at = fields.AwareDateTime()
    deadline = fields.AwareDateTime()
    completed_at = fields.AwareDateTime(allow_none=True)
    correct_count = fields.Integer(allow_none=True, metadata={"description": "0-5, once completed"})
    reward = fields.Dict(
        allow_none=True, metadata={"description": "The cards granted, once they were"}
    )


class AttemptPageSchema(CamelSchema):
    items = fields.List(
        fields.Nested(AttemptSummarySchema), metadata={"description": "Newest first"}
    )
    next = fields.String(
        allow_none=True, metadata={"description": "The cursor of the next page; null at the end"}
    )
