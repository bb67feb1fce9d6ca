"""Schemas of Chronovore's library and deck lists.

The cards service dumps decks with the shapes of ``shared/quest_card_schemas.py`` (every
game's decks share them); the requests are the gateway's own. A list may hold more or
fewer than 30 cards while edited: the bound here is only against abuse.
"""

from marshmallow import fields, validate

from gateway.casing import CamelSchema, camel_schema
from gateway.routes.pages import page_schema
from shared.quest_card_schemas import (
    MAX_LISTED_CARDS,
    MAX_NAME_INPUT,
    CardKeywordSchema,
    CollectionSchema,
    DeckSchema,
)

Collection = camel_schema(CollectionSchema)
Deck = camel_schema(DeckSchema)
CardKeyword = camel_schema(CardKeywordSchema)
REWARD_TYPES = (
    "coins | armor | health | strength | draw | weapon | upgrade | strike | copy_opposing "
    "| next_enemy"
)


class ChronovoreReward(CamelSchema):
    """One reward, claimed when the card pays off; only its type's numbers are present."""

    type = fields.String(metadata={"example": "next_enemy", "description": REWARD_TYPES})
    amount = fields.Integer(metadata={"description": "coins, armor, health, strength, draw"})
    attack = fields.Integer(metadata={"description": "weapon, upgrade, next_enemy"})
    durability = fields.Integer(metadata={"description": "weapon, upgrade"})
    health = fields.Integer(metadata={"description": "next_enemy: their next monster's"})
    cost = fields.Integer(metadata={"description": "next_enemy: their next event's"})
    initiative = fields.Boolean(metadata={"description": "next_enemy: their next monster's"})


class ChronovoreCardDefinition(CamelSchema):
    """A Core Set card's face as published."""

    name = fields.String(metadata={"example": "Bandit Scout"})
    card_class = fields.String(
        metadata={
            "example": "neutral",
            "description": "medic | captain | chaplain | engineer | priest | neutral",
        }
    )
    rarity = fields.String(metadata={"example": "common"})
    flavor = fields.String()
    attack = fields.Integer(metadata={"description": "A monster's"})
    health = fields.Integer(metadata={"description": "A monster's"})
    initiative = fields.Boolean(metadata={"description": "A monster's: it strikes first"})
    cost = fields.Integer(metadata={"description": "An event's Coins cost"})
    rewards = fields.List(fields.Nested(ChronovoreReward), metadata={"description": "In order"})
    keywords = fields.List(
        fields.Nested(CardKeyword),
        metadata={
            "description": "Each keyword the card shows (Initiative, Strike, Copy the card "
            "in the opposing slot, The next enemy card), with its definition, in the order "
            "the card reads"
        },
    )
    weakening = fields.Boolean(
        metadata={"description": "A replacement that weakened the card it replaces"}
    )


class LibraryCard(CamelSchema):
    id = fields.UUID()
    kind = fields.String(metadata={"example": "monster", "description": "monster | event_card"})
    game = fields.String(metadata={"example": "chronovore"})
    name = fields.String(metadata={"example": "Dreadnought"})
    rarity = fields.String(metadata={"example": "epic"})
    definition = fields.Nested(ChronovoreCardDefinition)


class CreateChronovoreDeckRequest(CamelSchema):
    name = fields.String(
        required=True,
        validate=validate.Length(max=MAX_NAME_INPUT),
        metadata={"example": "Field hospital"},
    )
    cards = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(max=MAX_LISTED_CARDS),
        metadata={
            "description": "Your owned copy ids; saved either way, legal with exactly 30 of "
            "one class plus Neutral within the copy limits (see legal and problems)"
        },
    )


class EditChronovoreDeckRequest(CamelSchema):
    expected_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), load_default=None, validate=validate.Length(max=MAX_LISTED_CARDS)
    )


class DeleteChronovoreDeckQuery(CamelSchema):
    # A query parameter is text: not strict, "3" is the number 3.
    expected_version = fields.Integer(required=True, validate=validate.Range(min=1))


LibraryPage = page_schema("ChronovoreLibraryPage", LibraryCard, "The Core Set: the whole list")
DeckPage = page_schema("ChronovoreDeckPage", Deck, "Your deck lists (30 at most): all of them")
