"""Schemas of TerraKard's routes: request bodies and documented answers
(docs/terrakard.md, "Hosting")."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from gateway.casing import CamelSchema
from gateway.routes.economy_schemas import MAX_PAGE
from gateway.routes.fairness_schemas import match_replay, match_seed
from gateway.routes.pages import PageQuery, page_schema
from gateway.routes.quest.battles_schemas import MAX_IDEMPOTENCY_KEY

MAX_NAME = 100  # the service trims and allows 40
MAX_CARDS = 20


def _version(description: str) -> fields.Integer:
    return fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={"description": description},
    )


def _cards(description: str, required: bool = True) -> fields.List[Any]:
    if required:
        return fields.List(
            fields.UUID(),
            required=True,
            validate=validate.Length(max=MAX_CARDS),
            metadata={"description": description},
        )
    return fields.List(
        fields.UUID(),
        load_default=None,
        validate=validate.Length(max=MAX_CARDS),
        metadata={"description": description},
    )


class CardSchema(CamelSchema):
    id = fields.UUID(metadata={"description": "The owned copy"})
    definition_id = fields.UUID()
    name = fields.String()
    category = fields.String(metadata={"example": "History"})
    rarity = fields.String(metadata={"example": "Common"})
    cost = fields.Integer()
    atk = fields.Integer()
    def_ = fields.Integer(data_key="def")
    acquired_at = fields.AwareDateTime()


class BudgetSchema(CamelSchema):
    level = fields.Integer()
    attack = fields.Integer(metadata={"description": "An attack deck's cost at most"})
    defense = fields.Integer(metadata={"description": "A plan's six cards' cost at most"})


class TerraKardCollectionSchema(CamelSchema):
    started = fields.Boolean(metadata={"description": "The starting collection was claimed"})
    budget = fields.Nested(BudgetSchema)
    active_plan_id = fields.UUID(allow_none=True)
    cards = fields.List(fields.Nested(CardSchema))


class ProblemItemSchema(CamelSchema):
    code = fields.String()
    message = fields.String()


class AttackDeckSchema(CamelSchema):
    id = fields.UUID()
    name = fields.String()
    version = fields.Integer(metadata={"description": "Send it back as expectedVersion"})
    cards = fields.List(fields.Nested(CardSchema))
    cost = fields.Integer()
    budget = fields.Integer()
    legal = fields.Boolean()
    problems = fields.List(fields.Nested(ProblemItemSchema))
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()


class CreateAttackDeckRequest(CamelSchema):
    name = fields.String(required=True, validate=validate.Length(max=MAX_NAME))
    cards = _cards("Eight of your copies, within your level's attack budget")


class EditAttackDeckRequest(CamelSchema):
    expected_version = _version("The deck version you saw")
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME))
    cards = _cards("Eight of your copies", required=False)


class ConditionSchema(CamelSchema):
    trigger = fields.String(
        required=True,
        validate=validate.OneOf(["category", "epic_or_rarer", "low_hp"]),
        metadata={"description": "category | epic_or_rarer | low_hp"},
    )
    category = fields.String(load_default=None, allow_none=True)


class PlanRequest(CamelSchema):
    name = fields.String(required=True, validate=validate.Length(max=MAX_NAME))
    rounds = _cards("Five of your copies, in the order of the rounds")
    reserve = fields.UUID(required=True, metadata={"description": "A sixth, different copy"})
    condition = fields.Nested(ConditionSchema, required=True)
    posture = fields.String(
        required=True,
        validate=validate.OneOf(["cautious", "balanced", "offensive"]),
        metadata={"description": "cautious | balanced | offensive"},
    )
    activate = fields.Boolean(load_default=False, metadata={"description": "Make it active"})


class EditPlanRequest(PlanRequest):
    expected_version = _version("The plan version you saw")


class PlanSchema(CamelSchema):
    id = fields.UUID()
    name = fields.String()
    version = fields.Integer()
    active = fields.Boolean()
    rounds = fields.List(fields.Nested(CardSchema))
    reserve = fields.Nested(CardSchema, allow_none=True)
    condition = fields.Dict()
    posture = fields.String()
    cost = fields.Integer()
    budget = fields.Integer()
    legal = fields.Boolean()
    problems = fields.List(fields.Nested(ProblemItemSchema))
    created_at = fields.AwareDateTime()
    updated_at = fields.AwareDateTime()


class TargetSchema(CamelSchema):
    target_id = fields.UUID(metadata={"description": "Send it as targetId to attack"})
    pseudonym = fields.String()
    level = fields.Integer()
    trophies = fields.Integer()
    automatic = fields.Boolean(metadata={"description": "Defends with the automatic plan"})
    demo = fields.Boolean(
        metadata={
            "description": "A demo defender of a demo install, not a player: its name ends "
            "with (demo); it keeps its level and trophies and is never protected"
        }
    )


EMPTY_REASONS = (
    "tutorial_not_finished",
    "no_players_near",
    "players_protected",
    "attacked_recently",
    "players_inactive",
    "players_busy",
)


class EmptyArenaSchema(CamelSchema):
    reason = fields.String(
        validate=validate.OneOf(EMPTY_REASONS), metadata={"example": "players_protected"}
    )
    message = fields.String(metadata={"description": "The reason in a sentence"})
    until = fields.AwareDateTime(
        allow_none=True,
        metadata={"description": "When that changes (the first protection's end), if known"},
    )


class ArenaSchema(CamelSchema):
    level = fields.Integer(metadata={"description": "Your level"})
    trophies = fields.Integer(metadata={"description": "Your trophies"})
    items = fields.List(fields.Nested(TargetSchema), metadata={"description": "The offer"})
    next = fields.String(
        allow_none=True, metadata={"description": "Always null: the offer is one page"}
    )
    empty = fields.Nested(
        EmptyArenaSchema,
        allow_none=True,
        metadata={"description": "Why the offer is empty and until when; null when it is not"},
    )


class StartTutorialRequest(CamelSchema):
    deck_id = fields.UUID(required=True, metadata={"description": "One of your attack decks"})


class ObjectiveSchema(CamelSchema):
    key = fields.String(metadata={"example": "attack_three_times"})
    description = fields.String()
    progress = fields.Integer()
    goal = fields.Integer()
    done = fields.Boolean()
    experience = fields.Integer(metadata={"description": "Earned when done"})


class ProfileSchema(CamelSchema):
    tickets = fields.Integer(metadata={"description": "Attack tickets now"})
    max_tickets = fields.Integer()
    next_ticket_at = fields.AwareDateTime(
        allow_none=True, metadata={"description": "When the next ticket comes (null: full)"}
    )
    protected_until = fields.AwareDateTime(
        allow_none=True, metadata={"description": "New-player protection"}
    )
    shield_until = fields.AwareDateTime(
        allow_none=True, metadata={"description": "Shield after a heavy defeat in defense"}
    )
    trophies = fields.Integer()
    experience = fields.Integer()
    level = fields.Integer()
    next_level_at = fields.Integer(
        allow_none=True, metadata={"description": "The experience the next level needs"}
    )
    tutorial_finished = fields.Boolean()
    questions = fields.Boolean(
        metadata={"description": "Your setting: knowledge questions in your attacks"}
    )
    victory_packs_today = fields.Integer()
    victory_packs_per_day = fields.Integer()
    objectives = fields.List(fields.Nested(ObjectiveSchema))
    day = fields.Date(metadata={"description": "Today (UTC): objectives reset at midnight"})


class StartAttackRequest(CamelSchema):
    deck_id = fields.UUID(required=True, metadata={"description": "One of your attack decks"})
    target_id = fields.UUID(required=True, metadata={"description": "A target of the arena"})
    questions = fields.Boolean(
        metadata={
            "description": "Knowledge questions in this attack only (absent: your setting, "
            "PUT /terrakard/settings)"
        },
    )


class SettingsSchema(CamelSchema):
    questions = fields.Boolean(
        required=True,
        metadata={"description": "Knowledge questions in your attacks, from the next one"},
    )


class AttackSchema(CamelSchema):
    id = fields.UUID()
    mode = fields.String(metadata={"example": "attack"})
    status = fields.String(metadata={"description": "active | finished"})
    outcome = fields.String(
        allow_none=True,
        metadata={"description": "three_stars | two_stars | one_star | defeat | forfeit"},
    )
    version = fields.Integer(metadata={"description": "Send it back as expectedVersion"})
    phase = fields.String(metadata={"description": "reconnaissance | choose | question | finished"})
    round = fields.Integer()
    deadline = fields.AwareDateTime(allow_none=True)
    attacker_hp = fields.Integer()
    defense_hp = fields.Integer()
    reconnaissance = fields.Dict(
        metadata={"description": "Pseudonym, level, trophies, terrain, categories (sorted)"}
    )
    deck = fields.List(fields.Dict())
    rounds = fields.List(fields.Dict(), metadata={"description": "Each round as revealed"})
    revealed_now = fields.Dict(allow_none=True)
    question = fields.Dict(
        allow_none=True, metadata={"description": "Prompt, three answers, stake; never a key"}
    )
    result = fields.Dict(allow_none=True, metadata={"description": "stars, winner, reason"})
    legal_actions = fields.List(fields.Dict())
    defender = fields.String(metadata={"description": "The defender's pseudonym"})
    created_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)
    fairness = match_seed()


class AttackResultSchema(AttackSchema):
    events = fields.List(fields.Dict(), metadata={"description": "What this action did"})


class AttackActionSchema(CamelSchema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["begin", "play", "answer", "skip", "give_up", "timeout"]),
        metadata={"description": "begin | play | answer | skip | give_up | timeout"},
    )
    card = fields.Integer(strict=True, metadata={"description": "play: the deck index"})
    choice = fields.Integer(strict=True, metadata={"description": "answer: 0, 1 or 2"})


class AttackActionRequest(CamelSchema):
    expected_version = _version("The attack version your view shows (stale: 409)")
    action = fields.Nested(AttackActionSchema, required=True)
    idempotency_key = fields.String(
        load_default=None, allow_none=True, validate=validate.Length(min=1, max=MAX_IDEMPOTENCY_KEY)
    )


class AttackHistorySchema(CamelSchema):
    match_id = fields.UUID()
    status = fields.String()
    outcome = fields.String(allow_none=True)
    version = fields.Integer()
    entries = fields.List(fields.Dict())
    fairness = match_seed()
    replay = match_replay()


class DefenseReportSchema(CamelSchema):
    match_id = fields.UUID()
    attacker = fields.String(metadata={"description": "Pseudonym, or Deleted player"})
    result = fields.String(metadata={"description": "victory | defeat (the defense's)"})
    attacker_result = fields.String()
    finished_at = fields.AwareDateTime()
    report = fields.Dict()
    replay = fields.List(fields.Dict(), metadata={"description": "One report: the whole log"})


DefenseReportsSchema = page_schema(
    "DefenseReportPage", DefenseReportSchema, "Newest first (by when the attack ended)"
)


class AttacksQuery(PageQuery):
    # A page of attacks is smaller than most (each line names a terrain and a defender).
    limit = fields.Integer(
        load_default=20,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": "At most 100 (default 20)"},
    )


class AttackSummarySchema(CamelSchema):
    id = fields.UUID()
    mode = fields.String(metadata={"description": "attack | tutorial"})
    defender = fields.String(
        metadata={"description": "The defender's pseudonym, Training plan, or Deleted player"}
    )
    terrain = fields.String(metadata={"example": "Fog"})
    status = fields.String(metadata={"description": "active | finished"})
    outcome = fields.String(
        allow_none=True,
        metadata={"description": "three_stars | two_stars | one_star | defeat | forfeit"},
    )
    stars = fields.Integer(allow_none=True, metadata={"description": "0-3 once finished"})
    rounds_played = fields.Integer()
    created_at = fields.AwareDateTime()
    finished_at = fields.AwareDateTime(allow_none=True)


AttacksPageSchema = page_schema("AttacksPage", AttackSummarySchema, "Newest first")


AttackDeckPageSchema = page_schema(
    "AttackDeckPage", AttackDeckSchema, "Your attack decks (a handful at most): all of them"
)
PlanPageSchema = page_schema("PlanPage", PlanSchema, "Your defense plans: all of them")
