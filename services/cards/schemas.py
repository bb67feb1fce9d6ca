"""Payloads of the cards RPC interface."""

from marshmallow import Schema, fields, validate

from games.chronovore.collection import CARD_KINDS as CHRONOVORE_CARD_KINDS
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
    # The asking route's game: a deck of another game is not found (any game: None).
    game = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(list(Game)))


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


# Every game's kinds of card (a CPU deck names Quest's or Chronovore's lineages).
ALL_CARD_KINDS = sorted(CARD_KINDS | CHRONOVORE_CARD_KINDS)
MAX_NAMED_LINEAGES = 40  # a configured CPU deck's distinct cards (Chronovore's: 18)


class NamedDefinitionsSchema(GameSchema):
    kind = fields.String(required=True, validate=validate.OneOf(ALL_CARD_KINDS))
    names = fields.List(
        fields.String(validate=validate.Length(min=1, max=80)),
        required=True,
        validate=validate.Length(min=1, max=MAX_NAMED_LINEAGES),
    )


class MatchDeckCardSchema(Schema):
    copy_id = fields.UUID()
    definition_id = fields.UUID()
    kind = fields.String()
    definition = fields.Dict()


class MatchDeckSchema(Schema):
    deck_id = fields.UUID()
    game = fields.String()
    version = fields.Integer()
    cards = fields.List(fields.Nested(MatchDeckCardSchema))


# -- the economy -----------------------------------------------------------------------

IDEMPOTENCY_KEY = validate.Length(min=1, max=80)
CURRENCY = validate.Regexp(r"^[a-z][a-z0-9_]{0,29}$")


class PlayerGameSchema(PlayerIdSchema, GameSchema):
    pass


class LedgerChangeSchema(PlayerGameSchema):
    currency = fields.String(required=True, validate=CURRENCY)
    amount = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=1_000_000_000)
    )
    reason = fields.String(required=True, validate=validate.Length(min=1, max=40))
    idempotency_key = fields.String(required=True, validate=IDEMPOTENCY_KEY)


class PageSchema(Schema):
    cursor = fields.String(load_default=None, validate=validate.Length(max=20))
    limit = fields.Integer(load_default=50, strict=True, validate=validate.Range(min=1, max=100))


class LedgerHistorySchema(PlayerGameSchema, PageSchema):
    currency = fields.String(load_default=None, validate=CURRENCY)


class GrantPacksSchema(PlayerGameSchema):
    kind = fields.String(required=True, validate=validate.Length(min=1, max=40))
    quantity = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=100))
    source_type = fields.String(required=True, validate=validate.Length(min=1, max=30))
    source_id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    idempotency_key = fields.String(required=True, validate=IDEMPOTENCY_KEY)
    pay = fields.Boolean(load_default=False)


class OpenPackSchema(PlayerIdSchema):
    pack_id = fields.UUID(required=True)
    idempotency_key = fields.String(required=True, validate=IDEMPOTENCY_KEY)
    game = fields.String(load_default=None, validate=validate.OneOf(list(Game)))


class SellPackSchema(OpenPackSchema):
    pass


class ShredSchema(PlayerGameSchema):
    copy_id = fields.UUID(required=True)
    idempotency_key = fields.String(required=True, validate=IDEMPOTENCY_KEY)


class CraftSchema(PlayerGameSchema):
    definition_id = fields.UUID(required=True)
    finish = fields.String(required=True, validate=validate.Length(min=1, max=20))
    idempotency_key = fields.String(required=True, validate=IDEMPOTENCY_KEY)


class ClientSeedSchema(PlayerIdSchema):
    client_seed = fields.String(required=True, validate=validate.Length(min=1, max=64))


class RollHistorySchema(PlayerIdSchema, PageSchema):
    pass


MAX_CHOICE_OPTIONS = 100  # ours: a fair choice another service asks for (a terrain)


class FairChoiceSchema(PlayerIdSchema):
    """Another service's fair roll for a player: one uniform choice among ``options``."""

    purpose = fields.String(required=True, validate=validate.Length(min=1, max=80))
    key = fields.String(required=True, validate=validate.Length(min=1, max=40))
    source_type = fields.String(required=True, validate=validate.Length(min=1, max=30))
    source_id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    options = fields.List(
        fields.String(validate=validate.Length(min=1, max=80)),
        required=True,
        validate=validate.Length(min=1, max=MAX_CHOICE_OPTIONS),
    )
