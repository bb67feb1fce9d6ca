"""Payloads of the battle RPC interface (the player id always comes from the gateway)."""

from marshmallow import Schema, fields, validate

from services.battle.games import GAMES

MAX_IDEMPOTENCY_KEY = 100  # the match_actions column


class PlayerSchema(Schema):
    player_id = fields.UUID(required=True)


class StartMatchSchema(PlayerSchema):
    deck_id = fields.UUID(required=True)


class GamePlayerSchema(PlayerSchema):
    # The asking route's game: a match of another game is not found there.
    game = fields.String(load_default="quest", validate=validate.OneOf(sorted(GAMES)))


class MatchRefSchema(GamePlayerSchema):
    match_id = fields.UUID(required=True)


class _VersionedSchema(MatchRefSchema):
    expected_version = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=0, max=2**31 - 1)
    )
    idempotency_key = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=MAX_IDEMPOTENCY_KEY),
    )


class ActSchema(_VersionedSchema):
    # Its vocabulary is the engine's (Action.from_dict): checked there, as invalid input.
    action = fields.Dict(required=True)


class ForfeitSchema(_VersionedSchema):
    pass


class StartAttackSchema(PlayerSchema):
    deck_id = fields.UUID(required=True)
    target_id = fields.UUID(required=True)
    questions = fields.Boolean(load_default=None, allow_none=True)


class TerraKardSettingsSchema(PlayerSchema):
    questions = fields.Boolean(required=True)
