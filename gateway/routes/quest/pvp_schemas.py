"""Schemas of Quest's asynchronous matches against a player: the list and the record
(invitations: gateway/routes/invitations_schemas.py; the match itself: battles_schemas)."""

from marshmallow import fields

from gateway.casing import CamelSchema
from gateway.routes.pages import page_schema


class PvpMatchSummarySchema(CamelSchema):
    """One of your matches against a player: no cards (read the match for them)."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "async"})
    status = fields.String(metadata={"description": "active | finished"})
    side = fields.String(metadata={"description": "Your side: player (inviter) | cpu (invited)"})
    opponent_name = fields.String(
        metadata={"example": "Keeper-3fa2c1", "description": 'Or "Deleted player"'}
    )
    your_turn = fields.Boolean(metadata={"description": "The match waits for your decision"})
    outcome = fields.String(
        allow_none=True, metadata={"description": "victory | defeat | forfeit once finished"}
    )
    version = fields.Integer()
    deadline = fields.AwareDateTime(
        allow_none=True, metadata={"description": "The open decision window's end (24 h)"}
    )
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)


class PvpRecordSchema(CamelSchema):
    wins = fields.Integer()
    losses = fields.Integer()
    uncounted = fields.Integer(
        metadata={"description": "Finished matches beyond 3 a day against the same player"}
    )


PvpMatchesSchema = page_schema(
    "PvpMatches",
    PvpMatchSummarySchema,
    "Newest first (by when it started), active and finished alike: status says which",
    record=fields.Nested(PvpRecordSchema),
    active_limit=fields.Integer(
        metadata={"example": 10, "description": "Active matches you may have at once"}
    ),
)
