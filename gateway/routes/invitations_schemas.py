"""Schemas of invitations to a match against another player, by pseudonym: Chronovore's
live matches and Quest's asynchronous ones (services/battle/pvp.py)."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.pages import page_schema

MAX_PSEUDONYM = 32


class InviteRequest(CamelSchema):
    to = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_PSEUDONYM),
        metadata={"example": "Keeper-3fa2c1", "description": "The player's pseudonym"},
    )
    deck_id = fields.UUID(required=True, metadata={"description": "One of your legal decks"})
    mode = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=16),
        metadata={
            "example": "live",
            "description": "Quest only: live for a direct live challenge (it expires after "
            "2 minutes; accepted, a live match with 60-second windows starts); absent or "
            "async for an asynchronous invitation",
        },
    )


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
    mode = fields.String(
        metadata={"example": "async", "description": "The match it starts: pvp | async | live"}
    )
    deck_id = fields.UUID(
        allow_none=True, metadata={"description": "Your deck, on an invitation you sent"}
    )
    match_id = fields.UUID(allow_none=True, metadata={"description": "Once accepted"})
    created_at = fields.AwareDateTime()
    expires_at = fields.AwareDateTime(
        metadata={
            "description": "10 minutes (Chronovore), 24 hours (Quest) or 2 minutes (Quest's "
            "live challenges) after it was sent"
        }
    )


InvitationsSchema = page_schema(
    "Invitations",
    InvitationSchema,
    "Newest first (by when it was sent), sent and received, every status",
    you=fields.String(
        metadata={
            "example": "Keeper-3fa2c1",
            "description": "Your pseudonym: others invite you by it",
        }
    ),
)


class AcceptedMatchSchema(CamelSchema):
    """The new match as your seat sees it: the game's own match view (Chronovore's
    ``MatchView``, as ``GET /chronovore/matches/{id}``; Quest's ``BattleView``, as
    ``GET /quest/battles/{id}``), of which these fields are common to both."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "async", "description": "pvp | async | live"})
    status = fields.String(metadata={"example": "active"})
    version = fields.Integer(metadata={"description": "Send it back as expectedVersion"})
