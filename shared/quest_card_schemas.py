"""The public shape of a Quest player's cards, shared by the cards service (which
dumps its results with them) and the gateway (which documents them)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields


class CopySourceSchema(Schema):
    type = fields.String(metadata={"example": "reward", "description": "reward or starter"})
    id = fields.UUID(metadata={"description": "The attempt (reward) or player (starter)"})


class CardKeywordSchema(Schema):
    """A bold word on a card and the definition a player reads resting on it (Chronovore:
    games/chronovore/content.py, ``KEYWORDS``)."""

    keyword = fields.String(metadata={"example": "initiative"})
    name = fields.String(metadata={"example": "Initiative", "description": "As the card shows it"})
    definition = fields.String(metadata={"example": "This monster strikes the hero first."})


def card_keywords() -> fields.List[Any]:
    return fields.List(
        fields.Nested(CardKeywordSchema),
        metadata={
            "description": "Chronovore: each keyword the card shows, with its definition, "
            "in the order the card reads (absent for other games)"
        },
    )


class OwnedCopySchema(Schema):
    id = fields.UUID(metadata={"description": "This owned copy's own id"})
    definition_id = fields.UUID()
    name = fields.String(metadata={"example": "Quillip"})
    kind = fields.String(metadata={"example": "creature"})
    rarity = fields.String(metadata={"example": "Common"})
    affinity = fields.String(allow_none=True, metadata={"example": "Wit"})
    acquired_at = fields.AwareDateTime()
    source = fields.Nested(CopySourceSchema)
    keywords = card_keywords()


class StarterSchema(Schema):
    affinity = fields.String(metadata={"example": "Wit"})
    granted_at = fields.AwareDateTime()
    cards = fields.List(fields.Nested(OwnedCopySchema))


class CollectionDefinitionSchema(Schema):
    id = fields.UUID()
    name = fields.String()
    kind = fields.String()
    rarity = fields.String()
    affinity = fields.String(allow_none=True)
    retired = fields.Boolean(metadata={"description": "No longer awarded; copies stay yours"})
    keywords = card_keywords()


class CollectionCopySchema(Schema):
    id = fields.UUID()
    # Chronovore: "The collection lists each finish on its own" (plain, golden, diamond);
    # a Quest copy is "standard".
    finish = fields.String(metadata={"example": "golden"})
    acquired_at = fields.AwareDateTime()
    source = fields.Nested(CopySourceSchema)


class CollectionGroupSchema(Schema):
    definition = fields.Nested(CollectionDefinitionSchema)
    count = fields.Integer(metadata={"description": "How many copies you own"})
    copies = fields.List(fields.Nested(CollectionCopySchema))


class CollectionSchema(Schema):
    player_id = fields.UUID()
    starter_affinity = fields.String(allow_none=True)
    total_copies = fields.Integer()
    definitions = fields.List(fields.Nested(CollectionGroupSchema))


class DeckProblemSchema(Schema):
    code = fields.String(metadata={"example": "deck_cost_exceeded"})
    message = fields.String()


class DeckSchema(Schema):
    id = fields.UUID()
    name = fields.String(metadata={"example": "Morning walk"})
    version = fields.Integer()
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    cards = fields.List(fields.Nested(OwnedCopySchema))
    cost = fields.Integer(metadata={"description": "Combined rarity cost (at most 10)"})
    legal = fields.Boolean()
    problems = fields.List(fields.Nested(DeckProblemSchema))


# Bounds on requests, against abuse only; the cards service and the gateway's deck
# requests (gateway/routes/quest/cards_schemas.py) share them.
MAX_LISTED_CARDS = 100
MAX_NAME_INPUT = 200
