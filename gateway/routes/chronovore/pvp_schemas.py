"""Schemas of Chronovore against another player: the queue and invitations."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema

MAX_PSEUDONYM = 32


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


class InviteRequest(CamelSchema):
    to = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_PSEUDONYM),
        metadata={"example": "Keeper-3fa2c1", "description": "The player's pseudonym"},
    )
    deck_id = fields.UUID(required=True, metadata={"description": "One of your legal decks"})


class AcceptInvitationRequest(CamelSchema):
    deck_id = fields.UUID(required=True, metadata={"description": "One of your legal decks"})


class InvitationSchema(CamelSchema):
    id = fields.UUID()
    from_ = fields.String(data_key="from", metadata={"description": "The inviter's pseudonym"})
    to = fields.String(metadata={"description": "The invited player's pseudonym"})
    sent = fields.Boolean(metadata={"description": "True when you sent it"})
    status = fields.String(
        metadata={"description": "pending | accepted | declined | cancelled | expired"}
    )
    deck_id = fields.UUID(
        allow_none=True, metadata={"description": "Your deck, on an invitation you sent"}
    )
    match_id = fields.UUID(allow_none=True, metadata={"description": "Once accepted"})
    created_at = fields.AwareDateTime()
    expires_at = fields.AwareDateTime(metadata={"description": "10 minutes after it was sent"})


class InvitationsSchema(CamelSchema):
    you = fields.String(
        metadata={
            "example": "Keeper-3fa2c1",
            "description": "Your pseudonym: others invite you by it",
        }
    )
    items = fields.List(
        fields.Nested(InvitationSchema),
        metadata={"description": "Your 20 newest invitations, sent and received"},
    )
