"""Schemas of Quest CPU battles: request bodies and documented answers."""

from __future__ import annotations

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.fairness_schemas import match_replay, match_seed
from gateway.routes.pages import page_schema

ACTION_KINDS = ("use_move", "play_power_card", "swap", "select_creature", "timeout", "forfeit")
MAX_IDEMPOTENCY_KEY = 100


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
        metadata={
            "description": "Optional (or the Idempotency-Key header): the same key again "
            "returns the first answer"
        },
    )


class StartBattleRequest(CamelSchema):
    deck_id = fields.UUID(required=True, metadata={"description": "One of your saved decks"})


class BattleActionSchema(CamelSchema):
    kind = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"example": "use_move", "description": " | ".join(ACTION_KINDS)},
    )
    index = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        metadata={"description": "The move, Power card or Creature (not for timeout/forfeit)"},
    )


class BattleActionRequest(CamelSchema):
    expected_version = _expected_version()
    action = fields.Nested(
        BattleActionSchema,
        required=True,
        metadata={"description": "Copy one of the view's legalActions"},
    )
    idempotency_key = _idempotency_key()


class ForfeitRequest(CamelSchema):
    expected_version = _expected_version()
    idempotency_key = _idempotency_key()


class BattleViewSchema(CamelSchema):
    """The player's view of a match: never the seed, the CPU's hand or its bench."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "cpu"})
    deck_id = fields.UUID()
    status = fields.String(metadata={"example": "active", "description": "active | finished"})
    outcome = fields.String(
        allow_none=True, metadata={"description": "victory | defeat | forfeit once finished"}
    )
    opponent_name = fields.String(
        allow_none=True,
        metadata={
            "description": 'Against a player: their pseudonym, or "Deleted player"; '
            "null against the CPU"
        },
    )
    version = fields.Integer(metadata={"description": "Send it back as expectedVersion"})
    side = fields.String(metadata={"example": "player"})
    phase = fields.String(
        metadata={
            "example": "normal_turn",
            "description": "initial_selection | normal_turn | mandatory_replacement | finished",
        }
    )
    turn = fields.String(allow_none=True, metadata={"example": "player"})
    your_turn = fields.Boolean()
    turn_number = fields.Integer()
    deadline = fields.AwareDateTime(
        allow_none=True,
        metadata={
            "description": "Your normal turn's deadline (90 s); against a player, the open "
            "decision window's end (24 h asynchronous, 60 s live)"
        },
    )
    winner = fields.String(allow_none=True)
    finish_reason = fields.String(
        allow_none=True,
        metadata={
            "description": "all_defeated | forfeit | missed_deadline (24 h window, "
            "asynchronous) | timeouts (three missed 60 s windows in a row, live)"
        },
    )
    timeouts_in_row = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "example": {"you": 0, "opponent": 2},
            "description": "Live matches only: the windows each side missed in a row "
            "(three forfeit)",
        },
    )
    affinity_rules_version = fields.Integer()
    you = fields.Dict(metadata={"description": "Your Creatures and Power cards, in full"})
    opponent = fields.Dict(
        metadata={"description": "The CPU's active Creature, counts and played Power cards"}
    )
    legal_actions = fields.List(
        fields.Dict(),
        metadata={"example": [{"kind": "use_move", "index": 0}, {"kind": "forfeit"}]},
    )
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)
    fairness = match_seed()


class BattleResultSchema(BattleViewSchema):
    events = fields.List(
        fields.Dict(),
        metadata={"description": "What your action and the CPU's replies did, in order"},
    )


class BattleHistoryEntrySchema(CamelSchema):
    seq = fields.Integer(metadata={"description": "The match version this action produced"})
    side = fields.String(metadata={"example": "cpu"})
    action = fields.Dict()
    at = fields.AwareDateTime()
    events = fields.List(fields.Dict())


class BattleHistorySchema(CamelSchema):
    match_id = fields.UUID()
    status = fields.String()
    outcome = fields.String(allow_none=True)
    opponent_name = fields.String(allow_none=True)
    version = fields.Integer()
    entries = fields.List(fields.Nested(BattleHistoryEntrySchema))
    fairness = match_seed()
    replay = match_replay()


class BattleSummarySchema(CamelSchema):
    """One line of your battles: whom, how, when; never a card (open the battle)."""

    id = fields.UUID()
    mode = fields.String(metadata={"example": "cpu"})
    deck_id = fields.UUID(metadata={"description": "The deck you brought"})
    opponent = fields.String(metadata={"example": "cpu", "description": "The computer"})
    status = fields.String(metadata={"description": "active | finished"})
    outcome = fields.String(
        allow_none=True, metadata={"description": "victory | defeat | forfeit once finished"}
    )
    created_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)


BattlePageSchema = page_schema("BattlePage", BattleSummarySchema, "Newest first")
