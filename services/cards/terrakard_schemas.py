"""Payloads of the cards service's TerraKard RPCs (docs/terrakard.md, "Hosting")."""

from marshmallow import Schema, fields, validate

from shared.quest_card_schemas import MAX_NAME_INPUT

MAX_LEVEL = 1000  # assumed: far above any level
LEVEL = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_LEVEL))
MAX_CARDS_INPUT = 20  # a deck has 8, a plan 5: anything longer is refused as invalid


class PlayerLevelSchema(Schema):
    player_id = fields.UUID(required=True)
    level = LEVEL


class SaveDeckSchema(PlayerLevelSchema):
    deck_id = fields.UUID(load_default=None)
    expected_version = fields.Integer(strict=True, load_default=None)
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), load_default=None, validate=validate.Length(max=MAX_CARDS_INPUT)
    )


class RefVersionSchema(Schema):
    player_id = fields.UUID(required=True)
    ref_id = fields.UUID(required=True)
    expected_version = fields.Integer(strict=True, required=True)


class SavePlanSchema(PlayerLevelSchema):
    plan_id = fields.UUID(load_default=None)
    expected_version = fields.Integer(strict=True, load_default=None)
    name = fields.String(required=True, validate=validate.Length(max=MAX_NAME_INPUT))
    rounds = fields.List(
        fields.UUID(), required=True, validate=validate.Length(max=MAX_CARDS_INPUT)
    )
    reserve = fields.UUID(required=True)
    condition = fields.Dict(required=True)
    posture = fields.String(required=True, validate=validate.Length(max=20))
    activate = fields.Boolean(load_default=False)


class ActivatePlanSchema(PlayerLevelSchema):
    plan_id = fields.UUID(required=True)


class DeckForAttackSchema(PlayerLevelSchema):
    deck_id = fields.UUID(required=True)


class DefendersSchema(Schema):
    low = LEVEL
    high = LEVEL
    excluded = fields.List(fields.UUID(), load_default=list, data_key="exclude")
    limit = fields.Integer(strict=True, load_default=50, validate=validate.Range(1, 200))


class TargetSchema(Schema):
    target_id = fields.UUID(required=True)


class PlayerIdsSchema(Schema):
    player_ids = fields.List(fields.UUID(), required=True, validate=validate.Length(max=200))


class DemoDefenderSchema(Schema):
    key = fields.String(required=True, validate=validate.Length(min=1, max=40))
