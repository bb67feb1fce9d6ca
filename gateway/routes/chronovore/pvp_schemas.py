"""Schemas of Chronovore against another player: the queue (invitations:
gateway/routes/invitations_schemas.py)."""

from marshmallow import fields

from gateway.casing import CamelSchema


class JoinQueueRequest(CamelSchema):
    deck_id = fields.UUID(
        required=True, metadata={"description": "One of your legal Chronovore decks"}
    )


class QueueSchema(CamelSchema):
    """Where you stand: waiting, matched (your active match against a player), or idle."""

    status = fields.String(metadata={"example": "queued", "description": "idle | queued | matched"})
    deck_id = fields.UUID(allow_none=True, metadata={"description": "The deck you wait with"})
    joined_at = fields.AwareDateTime(allow_none=True)
    match_id = fields.UUID(
        allow_none=True, metadata={"description": "Your active match against a player"}
    )
    waiting = fields.Integer(metadata={"description": "Players waiting now, you included"})
