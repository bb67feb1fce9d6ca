"""Payloads of the cards RPC interface."""

from marshmallow import Schema, fields, validate

from shared.content import CARD_KINDS, Game
from shared.quest_card_schemas import MAX_LISTED_CARDS, MAX_NAME_INPUT


class PlayerIdSchema(Schema):
    player_id = fields.UUID(required=True)


class CollectionSchema(Schema):
    player_id = fields.UUID()
    created_at = fields.AwareDateTime()


class GameSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(list(Game)))


def _attribute(name: str) -> fields.Function:
    # Quest's attributes, shown as they were before they moved into ``attributes``.
    return fields.Function(lambda definition: definition["attributes"].get(name))


class DefinitionSchema(Schema):
    """A published definition as players may see it (no authoring internals)."""

    id = fields.UUID()
    kind = fields.String()
    game = fields.String()
    name = fields.String()
    rarity = fields.String()
    affinity = _attribute("affinity")
    reward_eligible = _attribute("reward_eligible")
    evolved = _attribute("evolved")
    snapshot = fields.Dict(data_key="definition")


class LineageDefinitionSchema(DefinitionSchema):
    """A canonical lineage's active version, with the name the lineage was founded under."""

    lineage_name = fields.String()


class StarterChoiceSchema(PlayerIdSchema):
    affinity = fields.String(required=True, validate=validate.Length(min=1, max=20))


class DeckRefSchema(PlayerIdSchema):
    deck_id = fields.UUID(required=True)


class GameListSchema(PlayerIdSchema):
    game = fields.String(load_default=Game.QUEST, validate=validate.OneOf(list(Game)))


class CreateDeckSchema(GameListSchema):
    name = fields.String(required=True, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), required=True, validate=validate.Length(max=MAX_LISTED_CARDS)
    )


class EditDeckSchema(DeckRefSchema):
    expected_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), load_default=None, validate=validate.Length(max=MAX_LISTED_CARDS)
    )


class DeleteDeckSchema(DeckRefSchema):
    expected_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class NamedDefinitionsSchema(GameSchema):
    kind = fields.String(required=True, validate=validate.OneOf(sorted(CARD_KINDS)))
    names = fields.List(
        fields.String(validate=validate.Length(min=1, max=80)),
        required=True,
        validate=validate.Length(min=1, max=10),
    )


class MatchDeckCardSchema(Schema):
    copy_id = fields.UUID()
    definition_id = fields.UUID()
    kind = fields.String()
    definition = fields.Dict()


class MatchDeckSchema(Schema):
    deck_id = fields.UUID()
    version = fields.Integer()
    cards = fields.List(fields.Nested(MatchDeckCardSchema))
