"""Schemas of Chronovore matches against the computer: requests and documented answers."""

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.fairness_schemas import match_replay, match_seed
from gateway.routes.pages import page_schema
from gateway.routes.quest.battles_schemas import MAX_IDEMPOTENCY_KEY

ACTION_KINDS = ("place", "move", "take_back", "lock", "forfeit")


def _expected_version() -> fields.Integer:
    return fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={"description": "The match version your view shows (stale: 409)"},
    )


def _idempotency_key() -> fields.String:
    return fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=MAX_IDEMPOTENCY_KEY),
        metadata={"description": "Optional (or the Idempotency-Key header)"},
    )


class StartChronovoreMatchRequest(CamelSchema):
    deck_id = fields.UUID(
        required=True, metadata={"description": "One of your legal Chronovore decks"}
    )


class MatchActionSchema(CamelSchema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(ACTION_KINDS),
        metadata={"example": "place", "description": " | ".join(ACTION_KINDS)},
    )
    card = fields.Integer(
        strict=True, metadata={"description": "place: the uid of a card in your hand"}
    )
    slot = fields.Integer(
        strict=True, metadata={"description": "place, move, take_back: a slot 0-3 from the left"}
    )
    to = fields.Integer(strict=True, metadata={"description": "move: the slot to move to"})


class MatchActionRequest(CamelSchema):
    expected_version = _expected_version()
    action = fields.Nested(
        MatchActionSchema,
        required=True,
        metadata={"description": "One of the view's legalActions"},
    )
    idempotency_key = _idempotency_key()


class LeaveChronovoreMatchRequest(CamelSchema):
    expected_version = _expected_version()
    idempotency_key = _idempotency_key()


class MatchViewSchema(CamelSchema):
    """Your view of a match: never the CPU's hand, deck, or a slotted card before its pair
    resolves (its locked row shows "face_down" slots)."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "cpu", "description": "cpu | pvp"})
    deck_id = fields.UUID()
    seat = fields.String(metadata={"example": "player"})
    status = fields.String(metadata={"example": "active", "description": "active | finished"})
    result = fields.String(
        allow_none=True, metadata={"description": "win | loss | draw | left once finished"}
    )
    results = fields.Dict(allow_none=True, metadata={"description": "Each seat's result"})
    finish_reason = fields.String(
        allow_none=True, metadata={"description": "hero_fell | duel | left"}
    )
    version = fields.Integer(metadata={"description": "Send it back as expectedVersion"})
    round = fields.Integer(metadata={"example": 1})
    rounds = fields.Integer(metadata={"example": 5})
    phase = fields.String(metadata={"description": "choosing | finished"})
    deadline = fields.AwareDateTime(
        allow_none=True,
        metadata={"description": "The choosing step's end (2 minutes): then you are locked in"},
    )
    you = fields.Dict(
        metadata={
            "description": "hero, hand, slots (4), locked, deckCount, discardCount; each "
            "card as the library's definition (ChronovoreCardDefinition) with its keywords "
            "and their definitions"
        }
    )
    opponent = fields.Dict(
        metadata={
            "description": "kind (cpu or player), name (another player's pseudonym, "
            "Deleted player once deleted; null for the CPU), hero, handCount, deckCount, "
            'locked, slots ("face_down" or null once locked)'
        }
    )
    revealed = fields.List(
        fields.Dict(),
        metadata={
            "description": "The pairs of the last resolution, slot by slot: both cards "
            "(with their keywords)"
        },
    )
    legal_actions = fields.List(
        fields.Dict(),
        metadata={"example": [{"kind": "place", "card": 3, "slot": 0}, {"kind": "lock"}]},
    )
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)
    fairness = match_seed()


class MatchResultSchema(MatchViewSchema):
    events = fields.List(
        fields.Dict(),
        metadata={
            "description": "What your action did, then the CPU's; when both rows are "
            "locked, each pair as it resolved (heroes_entered, pair_revealed, "
            "monster_fought, event_resolved, reward, strike, ...), a new round, the duel "
            "or the end"
        },
    )


class MatchHistoryEntrySchema(CamelSchema):
    seq = fields.Integer(metadata={"description": "The match version this action produced"})
    seat = fields.String(metadata={"example": "cpu"})
    action = fields.Dict(metadata={"description": "The CPU's place shows no card"})
    at = fields.AwareDateTime()
    events = fields.List(fields.Dict())


class MatchHistorySchema(CamelSchema):
    match_id = fields.UUID()
    mode = fields.String(metadata={"description": "cpu | pvp"})
    opponent = fields.String(
        allow_none=True,
        metadata={"description": "Another player's pseudonym (or Deleted player); null: the CPU"},
    )
    status = fields.String()
    result = fields.String(allow_none=True)
    version = fields.Integer()
    entries = fields.List(fields.Nested(MatchHistoryEntrySchema))
    fairness = match_seed()
    replay = match_replay()


class MatchSummarySchema(CamelSchema):
    """One line of your matches: whom, how, when; never a card (open the match)."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "cpu"})
    deck_id = fields.UUID(metadata={"description": "The deck list you brought"})
    opponent = fields.String(metadata={"example": "cpu", "description": "The computer"})
    status = fields.String(metadata={"description": "active | finished"})
    result = fields.String(
        allow_none=True, metadata={"description": "win | loss | draw | left once finished"}
    )
    created_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)


MatchPageSchema = page_schema("ChronovoreMatchPage", MatchSummarySchema, "Newest first")
