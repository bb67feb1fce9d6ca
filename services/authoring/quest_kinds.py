"""Quest's kinds of content as authoring checks them (rules/quest.txt): questions,
ordering questions, challenges, events, Creatures, Power cards, campaigns. The effect
vocabulary's one validator is the game's own (games/quest/validation.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from games.quest.content import MAX_EVENT_RADIUS_M, MIN_EVENT_RADIUS_M, Affinity, Rarity
from games.quest.validation import validate_conditions, validate_effects
from services.authoring.kind_rules import (
    LONG_TEXT,
    NAME,
    Body,
    CardNameBody,
    KindRules,
    text_field,
)
from shared.content import Kind

MAX_CHALLENGE_QUESTIONS = 50  # assumed
MAX_CAMPAIGN_EVENTS = 50  # assumed
MOVES_PER_CREATURE = 4  # rulebook: every published Creature has four ordered moves
CHOICES_PER_QUESTION = 4  # rulebook: four choices
ITEMS_PER_ORDERING_QUESTION = 4  # rulebook: four items
MIN_CHALLENGE_QUESTIONS = 5  # rulebook: at least five valid published questions


class Choice(Body):
    text = text_field(required=True)
    correct = fields.Boolean(load_default=False)


class QuestionBody(Body):
    prompt = text_field(LONG_TEXT, required=True)
    topic = text_field(NAME, load_default="")
    choices = fields.List(
        fields.Nested(Choice), load_default=list, validate=validate.Length(max=CHOICES_PER_QUESTION)
    )
    difficulty = fields.Integer(
        strict=True, validate=validate.Range(1, 3), allow_none=True, load_default=None
    )
    explanation = text_field(LONG_TEXT, load_default="")

    @validates_schema
    def at_most_one_answer(self, data: dict[str, Any], **kwargs: Any) -> None:
        if sum(1 for c in data.get("choices", []) if c.get("correct")) > 1:
            raise ValidationError("a question has exactly one accepted answer", "choices")


class OrderingQuestionBody(Body):
    prompt = text_field(LONG_TEXT, required=True)
    topic = text_field(NAME, load_default="")
    # The items in their one correct order (private: players see them shuffled).
    items = fields.List(
        text_field(), load_default=list, validate=validate.Length(max=ITEMS_PER_ORDERING_QUESTION)
    )
    difficulty = fields.Integer(
        strict=True, validate=validate.Range(1, 3), allow_none=True, load_default=None
    )
    explanation = text_field(LONG_TEXT, load_default="")


class ChallengeBody(Body):
    title = text_field(NAME, required=True)
    question_ids = fields.List(
        fields.UUID(), load_default=list, validate=validate.Length(max=MAX_CHALLENGE_QUESTIONS)
    )


class Location(Body):
    lat = fields.Float(required=True, allow_nan=False, validate=validate.Range(-90, 90))
    lon = fields.Float(required=True, allow_nan=False, validate=validate.Range(-180, 180))


class EventBody(Body):
    name = text_field(NAME, required=True)
    description = text_field(LONG_TEXT, load_default="")
    location = fields.Nested(Location, required=True)
    radius_m = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(MIN_EVENT_RADIUS_M, MAX_EVENT_RADIUS_M),
    )
    starts_at = fields.AwareDateTime(required=True)
    ends_at = fields.AwareDateTime(required=True)
    challenge_id = fields.UUID(allow_none=True, load_default=None)
    reward_definition_id = fields.UUID(allow_none=True, load_default=None)

    @validates_schema
    def ends_after_start(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["ends_at"] <= data["starts_at"]:
            raise ValidationError("an event must end after it starts", "ends_at")


class Move(Body):
    name = text_field(NAME, required=True)
    type = fields.String(required=True, validate=validate.OneOf(["Basic", *Affinity]))
    power_cost = fields.Integer(strict=True, required=True, validate=validate.Range(0, 20))
    conditions = fields.List(fields.Dict(), load_default=list)
    effects = fields.List(fields.Dict(), load_default=list, validate=validate.Length(max=6))


class CardBody(CardNameBody):
    rarity = fields.String(required=True, validate=validate.OneOf(list(Rarity)))
    flavor = text_field(LONG_TEXT, load_default="")
    reward_eligible = fields.Boolean(load_default=True)
    evolved = fields.Boolean(load_default=False)
    # A canonical starter card: part of the starter grant (see domain: retirement).
    starter = fields.Boolean(load_default=False)


class CreatureBody(CardBody):
    affinity = fields.String(required=True, validate=validate.OneOf(list(Affinity)))
    hp = fields.Integer(strict=True, required=True, validate=validate.Range(1, 500))
    max_power = fields.Integer(strict=True, required=True, validate=validate.Range(1, 50))
    moves = fields.List(
        fields.Nested(Move), load_default=list, validate=validate.Length(max=MOVES_PER_CREATURE)
    )

    @validates_schema
    def moves_fit_the_creature(self, data: dict[str, Any], **kwargs: Any) -> None:
        for position, move in enumerate(data.get("moves", []), start=1):
            if move["type"] not in ("Basic", data["affinity"]):
                raise ValidationError(
                    f"move {position} must be Basic or {data['affinity']}", "moves"
                )


class PowerCardBody(CardBody):
    effects = fields.List(fields.Dict(), load_default=list, validate=validate.Length(max=6))


class CampaignBody(Body):
    name = text_field(NAME, required=True)
    event_ids = fields.List(
        fields.UUID(), load_default=list, validate=validate.Length(max=MAX_CAMPAIGN_EVENTS)
    )


def _question_ready(body: dict[str, Any]) -> list[str]:
    problems = []
    texts = [c["text"].strip() for c in body.get("choices", [])]
    if len(texts) != CHOICES_PER_QUESTION or not all(texts):
        problems.append("a question needs four non-blank choices")
    elif len({t.casefold() for t in texts}) != CHOICES_PER_QUESTION:
        problems.append("the four choices must be distinct")
    if sum(1 for c in body.get("choices", []) if c.get("correct")) != 1:
        problems.append("a question needs exactly one accepted answer")
    if body.get("difficulty") is None:
        problems.append("a question needs a difficulty from 1 to 3")
    if not body.get("explanation", "").strip():
        problems.append("a question needs a non-blank explanation")
    if not body.get("prompt", "").strip():
        problems.append("a question needs a non-blank prompt")
    return problems


def _ordering_ready(body: dict[str, Any]) -> list[str]:
    problems = []
    items = [i.strip() for i in body.get("items", [])]
    if len(items) != ITEMS_PER_ORDERING_QUESTION or not all(items):
        problems.append("an ordering question needs four non-blank items")
    elif len({i.casefold() for i in items}) != ITEMS_PER_ORDERING_QUESTION:
        problems.append("the four items must be distinct")
    if body.get("difficulty") is None:
        problems.append("a question needs a difficulty from 1 to 3")
    if not body.get("explanation", "").strip():
        problems.append("an ordering question needs a non-blank explanation")
    if not body.get("prompt", "").strip():
        problems.append("a question needs a non-blank prompt")
    return problems


def _challenge_ready(body: dict[str, Any]) -> list[str]:
    ids = body.get("question_ids", [])
    if len(set(ids)) != len(ids):
        return ["a challenge lists each question once"]
    if len(ids) < MIN_CHALLENGE_QUESTIONS:
        return [f"a challenge needs at least {MIN_CHALLENGE_QUESTIONS} questions"]
    return []


def _event_ready(body: dict[str, Any]) -> list[str]:
    problems = []
    if body.get("challenge_id") is None:
        problems.append("an event needs a challenge")
    if body.get("reward_definition_id") is None:
        problems.append("an event needs a Common reward definition")
    return problems


def _move_problems(position: int, move: dict[str, Any]) -> list[str]:
    if not move.get("effects"):
        return [f"move {position} has no effect, so it cannot be executed"]
    return []


def _creature_ready(body: dict[str, Any]) -> list[str]:
    moves = body.get("moves", [])
    problems = []
    if len(moves) != MOVES_PER_CREATURE:
        problems.append(f"a Creature needs exactly {MOVES_PER_CREATURE} moves")
    for position, move in enumerate(moves, start=1):
        problems += _move_problems(position, move)
    return problems


def _power_card_ready(body: dict[str, Any]) -> list[str]:
    return [] if body.get("effects") else ["a Power card needs at least one effect"]


def _campaign_ready(body: dict[str, Any]) -> list[str]:
    ids = body.get("event_ids", [])
    if not ids:
        return ["a campaign needs at least one event"]
    if len(set(ids)) != len(ids):
        return ["a campaign lists each event once"]
    return []


def _vocabulary(body: dict[str, Any]) -> dict[str, Any]:
    """Moves' conditions and effects, and a Power card's effects, in canonical form."""
    for i, move in enumerate(body.get("moves", [])):
        move["conditions"] = validate_conditions(move["conditions"], f"moves[{i}].conditions")
        move["effects"] = validate_effects(move["effects"], f"moves[{i}].effects")
    if "effects" in body:
        body["effects"] = validate_effects(body["effects"])
    return body


def _question_public(view: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    return {**view, "choices": [c["text"] for c in body.get("choices", [])]}


def _ordering_public(view: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    # The order is the answer: never show it.
    return {**view, "items": sorted(body.get("items", []))}


QUEST_KINDS: Mapping[str, KindRules] = {
    Kind.QUESTION: KindRules(
        QuestionBody,
        _question_ready,
        ("choices", "explanation"),
        public=_question_public,
    ),
    Kind.ORDERING_QUESTION: KindRules(
        OrderingQuestionBody,
        _ordering_ready,
        ("items", "explanation"),
        public=_ordering_public,
    ),
    Kind.CHALLENGE: KindRules(ChallengeBody, _challenge_ready),
    Kind.EVENT: KindRules(EventBody, _event_ready),
    Kind.CREATURE: KindRules(CreatureBody, _creature_ready, is_card=True, validate=_vocabulary),
    Kind.POWER_CARD: KindRules(
        PowerCardBody, _power_card_ready, is_card=True, validate=_vocabulary
    ),
    Kind.CAMPAIGN: KindRules(CampaignBody, _campaign_ready),
}
