"""Schemas of Quest attempts: starting one at an event, answering, reading it."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.pages import page_schema
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


AttemptPageSchema = page_schema("AttemptPage", AttemptSummarySchema, "Newest first")
