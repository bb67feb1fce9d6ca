"""Payloads of the battle RPC interface for matches against another player (pvp.py)."""

from marshmallow import Schema, fields, validate

from services.battle.pvp import TABLES
from services.battle.schemas import PlayerSchema, StartMatchSchema

MAX_PSEUDONYM = 32  # the pvp_pseudonyms column


class _TableField(Schema):
    # The route's game (its Table): invitations of another game are not found there.
    game = fields.String(load_default="chronovore", validate=validate.OneOf(sorted(TABLES)))


class TablePlayerSchema(PlayerSchema, _TableField):
    pass


class QueueJoinSchema(StartMatchSchema, _TableField):
    pass


class InviteSchema(StartMatchSchema, _TableField):
    to = fields.String(required=True, validate=validate.Length(min=1, max=MAX_PSEUDONYM))
    # The invitation's kind (pvp.invitation_table): None for the game's own.
    mode = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=16))


class PresenceReportSchema(Schema):
    """A gateway replica's push connections (services/battle/presence.py)."""

    replica_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.Dict(
        keys=fields.UUID(),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=10_000)),
        load_default=dict,
    )
    lease_seconds = fields.Float(required=True, validate=validate.Range(min=0, max=300))


class InvitationRefSchema(TablePlayerSchema):
    invitation_id = fields.UUID(required=True)


class AcceptSchema(InvitationRefSchema):
    deck_id = fields.UUID(required=True)
