"""Schemas of Chronovore's library and deck lists.

The cards service dumps decks with the shapes of ``shared/quest_card_schemas.py`` (every
game's decks share them); the requests are the gateway's own. A list may hold more or
fewer than 30 cards while edited: the bound here is only against abuse.
"""

from marshmallow import fields, validate

from gateway.casing import CamelSchema, camel_schema
from gateway.routes.pages import page_schema
from shared.quest_card_schemas import MAX_LISTED_CARDS, MAX_NAME_INPUT, CollectionSchema, DeckSchema

Collection = camel_schema(CollectionSchema)
Deck = camel_schema(DeckSchema)


class LibraryCard(CamelSchema):
    id = fields.UUID()
    kind = fields.String(metadata={"example": "monster", "description": "monster | event_card"})
    game = fields.String(metadata={"example": "chronovore"})
    name = fields.String(metadata={"example": "Dreadnought"})
    rarity = fields.String(metadata={"example": "epic"})
    definition = fields.Dict(
        metadata={
            "description": "cardClass, attack/health/initiative (a monster) or cost (an "
            "event), rewards in order; keywords with their definitions"
        }
    )


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
