"""Schemas of a Quest player's own cards: starter, collection, decks.

The cards service dumps its answers with the shapes of ``shared/quest_card_schemas.py``;
the API documents them camelCase (``camel_schema``). The requests are the gateway's own.
"""

from marshmallow import fields, validate

from gateway.casing import CamelSchema, camel_schema
from gateway.routes.pages import page_schema
from shared.quest_card_schemas import (
    MAX_LISTED_CARDS,
    MAX_NAME_INPUT,
    CollectionSchema,
    DeckSchema,
    StarterSchema,
)

Collection = camel_schema(CollectionSchema)
Deck = camel_schema(DeckSchema)
Starter = camel_schema(StarterSchema)
DeckPage = page_schema("QuestDeckPage", Deck, "Your saved decks (20 at most): all of them")


def _expected_version() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class StarterRequest(CamelSchema):
    affinity = fields.String(
        required=True, validate=validate.Length(min=1, max=20), metadata={"example": "Wit"}
    )


# The number of cards is bounded here only against abuse; the deck rule (exactly
# five) is the cards service's, so its refusal names that rule.
class CreateDeckRequest(CamelSchema):
    name = fields.String(
        required=True,
        validate=validate.Length(max=MAX_NAME_INPUT),
        metadata={"example": "Morning walk"},
    )
    cards = fields.List(
        fields.UUID(),
        required=True,
        validate=validate.Length(max=MAX_LISTED_CARDS),
        metadata={"description": "Five of your owned copy ids: three Creatures, two Power cards"},
    )


class EditDeckRequest(CamelSchema):
    expected_version = _expected_version()
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), load_default=None, validate=validate.Length(max=MAX_LISTED_CARDS)
    )


class DeleteDeckQuery(CamelSchema):
    # A query parameter is text: not strict, "3" is the number 3.
    expected_version = fields.Integer(required=True, validate=validate.Range(min=1))
