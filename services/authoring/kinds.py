"""What each kind of content holds: its shape (checked on every save) and its
readiness (checked on submission, approval and publication).

A draft may be incomplete - a Creature with two moves, a question without an
explanation - but never malformed: wrong types, out-of-range numbers, a
second correct answer or a fifth move are refused when saved. Readiness adds
what the rulebook requires before review ("Approval and publication recheck
readiness and dependencies"). Dependencies on other content (a challenge's
questions, an event's challenge) are checked in ``domain`` against their
states.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    validate,
    validates_schema,
)

from games.quest.validation import validate_conditions, validate_effects
from shared.content import MAX_EVENT_RADIUS_M, MIN_EVENT_RADIUS_M, Affinity, Game, Kind, Rarity
from shared.errors import InvalidInput, refusals_as

TEXT = 500  # assumed bounds on authored text
LONG_TEXT = 2000
NAME = 80
MAX_CHALLENGE_QUESTIONS = 50  # assumed
MAX_CAMPAIGN_EVENTS = 50  # assumed
MOVES_PER_CREATURE = 4  # rulebook: every published Creature has four ordered moves
CHOICES_PER_QUESTION = 4  # rulebook: four choices
ITEMS_PER_ORDERING_QUESTION = 4  # rulebook: four items
MIN_CHALLENGE_QUESTIONS = 5  # rulebook: at least five valid published questions


class Body(Schema):
    class Meta:
        unknown = RAISE


def _text(size: int = TEXT, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(max=size), **kwargs)


class Choice(Body):
    text = _text(required=True)
    correct = fields.Boolean(load_default=False)


class QuestionBody(Body):
    prompt = _text(LONG_TEXT, required=True)
    topic = _text(NAME, load_default="")
    choices = fields.List(
        fields.Nested(Choice), load_default=list, validate=validate.Length(max=CHOICES_PER_QUESTION)
    )
    difficulty = fields.Integer(
        strict=True, validate=validate.Range(1, 3), allow_none=True, load_default=None
    )
    explanation = _text(LONG_TEXT, load_default="")

    @validates_schema
    def at_most_one_answer(self, data: dict[str, Any], **kwargs: Any) -> None:
        if sum(1 for c in data.get("choices", []) if c.get("correct")) > 1:
            raise ValidationError("a question has exactly one accepted answer", "choices")


class OrderingQuestionBody(Body):
    prompt = _text(LONG_TEXT, required=True)
    topic = _text(NAME, load_default="")
    # The items in their one correct order (private: players see them shuffled).
    items = fields.List(
        _text(), load_default=list, validate=validate.Length(max=ITEMS_PER_ORDERING_QUESTION)
    )
    difficulty = fields.Integer(
        strict=True, validate=validate.Range(1, 3), allow_none=True, load_default=None
    )
    explanation = _text(LONG_TEXT, load_default="")


class ChallengeBody(Body):
    title = _text(NAME, required=True)
    question_ids = fields.List(
        fields.UUID(), load_default=list, validate=validate.Length(max=MAX_CHALLENGE_QUESTIONS)
    )


class Location(Body):
    lat = fields.Float(required=True, allow_nan=False, validate=validate.Range(-90, 90))
    lon = fields.Float(required=True, allow_nan=False, validate=validate.Range(-180, 180))


class EventBody(Body):
    name = _text(NAME, required=True)
    description = _text(LONG_TEXT, load_default="")
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
    name = _text(NAME, required=True)
    type = fields.String(required=True, validate=validate.OneOf(["Basic", *Affinity]))
    power_cost = fields.Integer(strict=True, required=True, validate=validate.Range(0, 20))
    conditions = fields.List(fields.Dict(), load_default=list)
    effects = fields.List(fields.Dict(), load_default=list, validate=validate.Length(max=6))


class CardBody(Body):
    name = fields.String(required=True, validate=validate.Length(min=1, max=NAME))
    rarity = fields.String(required=True, validate=validate.OneOf(list(Rarity)))
    flavor = _text(LONG_TEXT, load_default="")
    reward_eligible = fields.Boolean(load_default=True)
    evolved = fields.Boolean(load_default=False)
    # A canonical starter card: part of the starter grant (see domain: retirement).
    starter = fields.Boolean(load_default=False)

    @validates_schema
    def name_is_readable(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The name's key (``name_key``) is what must be unique, and it is stored in a
        column of NAME characters: a name of only invisible characters, or one that
        grows past NAME once normalised ("ß" folds to "ss"), has no usable key."""
        key = name_key(data["name"])
        if not key:
            raise ValidationError("a card name needs visible characters", "name")
        if len(key) > NAME:
            raise ValidationError(f"a card name has at most {NAME} characters", "name")
        if any(unicodedata.category(c) == "Cc" for c in key):
            raise ValidationError("a card name cannot contain control characters", "name")


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
    name = _text(NAME, required=True)
    event_ids = fields.List(
        fields.UUID(), load_default=list, validate=validate.Length(max=MAX_CAMPAIGN_EVENTS)
    )


@dataclass(frozen=True)
class KindRules:
    schema: type[Schema]
    games: frozenset[Game]
    readiness: Callable[[dict[str, Any]], list[str]]
    # Fields never shown outside authoring's author endpoints and the challenge service.
    private_fields: tuple[str, ...] = ()


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


QUEST = frozenset({Game.QUEST})

KINDS: Mapping[Kind, KindRules] = {
    Kind.QUESTION: KindRules(QuestionBody, QUEST, _question_ready, ("choices", "explanation")),
    Kind.ORDERING_QUESTION: KindRules(
        OrderingQuestionBody, QUEST, _ordering_ready, ("items", "explanation")
    ),
    Kind.CHALLENGE: KindRules(ChallengeBody, QUEST, _challenge_ready),
    Kind.EVENT: KindRules(EventBody, QUEST, _event_ready),
    Kind.CREATURE: KindRules(CreatureBody, QUEST, _creature_ready),
    Kind.POWER_CARD: KindRules(PowerCardBody, QUEST, _power_card_ready),
    Kind.CAMPAIGN: KindRules(CampaignBody, QUEST, _campaign_ready),
}


def rules_for(kind: str, game: str) -> KindRules:
    try:
        rules = KINDS[Kind(kind)]
        game_ = Game(game)
    except ValueError as exc:
        raise InvalidInput(
            "unknown_kind",
            f"unknown content kind {kind!r} for game {game!r}",
            {"kinds": sorted(KINDS), "games": sorted(Game)},
        ) from exc
    if game_ not in rules.games:
        raise InvalidInput("unknown_kind", f"{kind} is not a kind of {game} content")
    return rules


def load_body(kind: str, game: str, body: Any) -> dict[str, Any]:
    """The body in its canonical JSON form, or a clear refusal saying what is wrong."""
    rules = rules_for(kind, game)
    if not isinstance(body, Mapping):
        raise InvalidInput("invalid_body", "the content body must be a JSON object")
    try:
        loaded = rules.schema().load(body)
    except ValidationError as exc:
        raise InvalidInput(
            "invalid_content", f"the {kind} body is invalid", {"fields": exc.messages_dict}
        ) from exc
    if "name" in loaded:
        loaded["name"] = " ".join(loaded["name"].split())
    with refusals_as(InvalidInput):  # the vocabulary's one validator (games/quest)
        for i, move in enumerate(loaded.get("moves", [])):
            move["conditions"] = validate_conditions(move["conditions"], f"moves[{i}].conditions")
            move["effects"] = validate_effects(move["effects"], f"moves[{i}].effects")
        if "effects" in loaded:
            loaded["effects"] = validate_effects(loaded["effects"])
    dumped: dict[str, Any] = rules.schema().dump(loaded)
    return dumped


def readiness_problems(kind: str, game: str, body: dict[str, Any]) -> list[str]:
    return rules_for(kind, game).readiness(body)


def public_view(kind: str, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body without its private fields (answer keys, explanations)."""
    private = rules_for(kind, game).private_fields
    view = {k: v for k, v in body.items() if k not in private}
    if kind == Kind.QUESTION:
        view["choices"] = [c["text"] for c in body.get("choices", [])]
    if kind == Kind.ORDERING_QUESTION:
        view["items"] = sorted(body.get("items", []))  # order is the answer: never show it
    return view


def card_name(kind: str, body: dict[str, Any]) -> str | None:
    """The normalised name that must be unique among card definitions."""
    if kind in (Kind.CREATURE, Kind.POWER_CARD):
        return name_key(str(body["name"]))
    return None


def name_key(name: str) -> str:
    """What makes two card names the same name: what a player reading them would see.

    NFKC (full-width and mathematical letters, ligatures, composed and decomposed
    accents become one form); invisible characters dropped (zero-width joiners and
    spaces, soft hyphens, direction marks, variation selectors); Cyrillic and Greek
    letters that look like Latin ones read as those (assumed: the common homoglyphs
    of Unicode's confusables list, not all of it); then case folded and whitespace
    collapsed. Accented letters stay distinct from plain ones ("Café" is not "Cafe").
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if not _invisible(c)).translate(_LATIN_LOOK_ALIKES)
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


def _invisible(char: str) -> bool:
    """Unicode's default-ignorable code points: format characters and the like."""
    return unicodedata.category(char) == "Cf" or any(
        low <= ord(char) <= high for low, high in _IGNORABLE_RANGES
    )


_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
_LATIN_LOOK_ALIKES = str.maketrans(
    {
        "\N{CYRILLIC CAPITAL LETTER A}": "A",
        "\N{CYRILLIC CAPITAL LETTER VE}": "B",
        "\N{CYRILLIC CAPITAL LETTER IE}": "E",
        "\N{CYRILLIC CAPITAL LETTER DZE}": "S",
        "\N{CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I}": "I",
        "\N{CYRILLIC CAPITAL LETTER JE}": "J",
        "\N{CYRILLIC CAPITAL LETTER KA}": "K",
        "\N{CYRILLIC CAPITAL LETTER EM}": "M",
        "\N{CYRILLIC CAPITAL LETTER EN}": "H",
        "\N{CYRILLIC CAPITAL LETTER O}": "O",
        "\N{CYRILLIC CAPITAL LETTER ER}": "P",
        "\N{CYRILLIC CAPITAL LETTER ES}": "C",
        "\N{CYRILLIC CAPITAL LETTER TE}": "T",
        "\N{CYRILLIC CAPITAL LETTER HA}": "X",
        "\N{CYRILLIC CAPITAL LETTER U}": "Y",
        "\N{CYRILLIC CAPITAL LETTER STRAIGHT U}": "Y",
        "\N{CYRILLIC CAPITAL LETTER QA}": "Q",
        "\N{CYRILLIC CAPITAL LETTER WE}": "W",
        "\N{CYRILLIC SMALL LETTER A}": "a",
        "\N{CYRILLIC SMALL LETTER IE}": "e",
        "\N{CYRILLIC SMALL LETTER DZE}": "s",
        "\N{CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I}": "i",
        "\N{CYRILLIC SMALL LETTER JE}": "j",
        "\N{CYRILLIC SMALL LETTER O}": "o",
        "\N{CYRILLIC SMALL LETTER ER}": "p",
        "\N{CYRILLIC SMALL LETTER ES}": "c",
        "\N{CYRILLIC SMALL LETTER HA}": "x",
        "\N{CYRILLIC SMALL LETTER U}": "y",
        "\N{CYRILLIC SMALL LETTER STRAIGHT U}": "y",
        "\N{CYRILLIC SMALL LETTER SHHA}": "h",
        "\N{CYRILLIC SMALL LETTER PALOCHKA}": "l",
        "\N{CYRILLIC SMALL LETTER KOMI DE}": "d",
        "\N{CYRILLIC SMALL LETTER QA}": "q",
        "\N{CYRILLIC SMALL LETTER WE}": "w",
        "\N{GREEK CAPITAL LETTER ALPHA}": "A",
        "\N{GREEK CAPITAL LETTER BETA}": "B",
        "\N{GREEK CAPITAL LETTER EPSILON}": "E",
        "\N{GREEK CAPITAL LETTER ZETA}": "Z",
        "\N{GREEK CAPITAL LETTER ETA}": "H",
        "\N{GREEK CAPITAL LETTER IOTA}": "I",
        "\N{GREEK CAPITAL LETTER KAPPA}": "K",
        "\N{GREEK CAPITAL LETTER MU}": "M",
        "\N{GREEK CAPITAL LETTER NU}": "N",
        "\N{GREEK CAPITAL LETTER OMICRON}": "O",
        "\N{GREEK CAPITAL LETTER RHO}": "P",
        "\N{GREEK CAPITAL LETTER TAU}": "T",
        "\N{GREEK CAPITAL LETTER UPSILON}": "Y",
        "\N{GREEK CAPITAL LETTER CHI}": "X",
        "\N{GREEK SMALL LETTER ALPHA}": "a",
        "\N{GREEK SMALL LETTER IOTA}": "i",
        "\N{GREEK SMALL LETTER KAPPA}": "k",
        "\N{GREEK SMALL LETTER NU}": "v",
        "\N{GREEK SMALL LETTER OMICRON}": "o",
        "\N{GREEK SMALL LETTER RHO}": "p",
        "\N{GREEK SMALL LETTER UPSILON}": "u",
        "\N{GREEK SMALL LETTER CHI}": "x",
        "\N{LATIN SMALL LETTER DOTLESS I}": "i",
    }
)
