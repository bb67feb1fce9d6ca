"""The public shape of a Quest player's cards, shared by the cards service (which
dumps its results with them) and the gateway (which documents them)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class CopySourceSchema(Schema):
    type = fields.String(metadata={"example": "reward", "description": "reward or starter"})
    id = fields.UUID(metadata={"description": "The attempt (reward) or player (starter)"})


class OwnedCopySchema(Schema):
    id = fields.UUID(metadata={"description": "This owned copy's own id"})
    definition_id = fields.UUID()
    name = fields.String(metadata={"example": "Quillip"})
    kind = fields.String(metadata={"example": "creature"})
    rarity = fields.String(metadata={"example": "Common"})
    affinity = fields.String(allow_none=True, metadata={"example": "Wit"})
    acquired_at = fields.AwareDateTime()
    source = fields.Nested(CopySourceSchema)


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


class CollectionCopySchema(Schema):
    id = fields.UUID()
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


# Requests. The number of cards is bounded here only against abuse; the deck rule
# (exactly five) is the cards service's, so its refusal names that rule.
MAX_LISTED_CARDS = 100
MAX_NAME_INPUT = 200


class StarterRequest(Schema):
    affinity = fields.String(
        required=True, validate=validate.Length(min=1, max=20), metadata={"example": "Wit"}
    )


class CreateDeckRequest(Schema):
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


class EditDeckRequest(Schema):
    expected_version = fields.Integer(
        required=True, strict=True, data_key="expectedVersion", validate=validate.Range(min=1)
    )
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_INPUT))
    cards = fields.List(
        fields.UUID(), load_default=None, validate=validate.Length(max=MAX_LISTED_CARDS)
    )


class DeleteDeckQuery(Schema):
    expected_version = fields.Integer(
        required=True, data_key="expectedVersion", validate=validate.Range(min=1)
    )
