"""Payloads of the battle RPC interface for matches against another player (pvp.py)."""

from marshmallow import fields, validate

from services.battle.schemas import PlayerSchema, StartMatchSchema

MAX_PSEUDONYM = 32  # the pvp_pseudonyms column


class InviteSchema(StartMatchSchema):
    to = fields.String(required=True, validate=validate.Length(min=1, max=MAX_PSEUDONYM))


class InvitationRefSchema(PlayerSchema):
    invitation_id = fields.UUID(required=True)


class AcceptSchema(InvitationRefSchema):
    deck_id = fields.UUID(required=True)
