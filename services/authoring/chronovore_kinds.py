"""Chronovore's kinds of content as authoring checks them (rules/chronovore.txt, "Cards,
monsters, and events"): monsters and events, each of a class (or Neutral) and a rarity,
with rewards. The bounds and the reward vocabulary's one validator are the game's own
(games/chronovore/cards.py); the public face adds each keyword's definition, which a
player reads resting on the bold word.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import fields, validate

from games.chronovore.cards import (
    EVENT_COST_RANGE,
    MONSTER_ATTACK_RANGE,
    MONSTER_HEALTH_RANGE,
    card_from_definition,
    keywords_shown,
)
from games.chronovore.content import CardClass, CardKind, Rarity
from services.authoring.kind_rules import LONG_TEXT, CardNameBody, KindRules, text_field


def _range(bounds: tuple[int, int]) -> validate.Range:
    return validate.Range(*bounds)


class ChronovoreCardBody(CardNameBody):
    card_class = fields.String(required=True, validate=validate.OneOf(list(CardClass)))
    rarity = fields.String(required=True, validate=validate.OneOf(list(Rarity)))
    flavor = text_field(LONG_TEXT, load_default="")
    rewards = fields.List(fields.Dict(), load_default=list)
    # A replacement that weakens the card it replaces (rulebook, "Shredding and
    # crafting"): for 7 days after it is published, shredding a Plain or Golden copy of
    # the card returns its full crafting cost (the cards service reads the mark).
    weakening = fields.Boolean(load_default=False)


class MonsterBody(ChronovoreCardBody):
    attack = fields.Integer(strict=True, required=True, validate=_range(MONSTER_ATTACK_RANGE))
    health = fields.Integer(strict=True, required=True, validate=_range(MONSTER_HEALTH_RANGE))
    initiative = fields.Boolean(load_default=False)


class EventCardBody(ChronovoreCardBody):
    cost = fields.Integer(strict=True, required=True, validate=_range(EVENT_COST_RANGE))


def _ready(body: dict[str, Any]) -> list[str]:
    # Ours: a card that pays off with nothing is not a card worth playing.
    return [] if body.get("rewards") else ["a Chronovore card needs at least one reward"]


def _validated(kind: CardKind) -> Any:
    def validate_body(body: dict[str, Any]) -> dict[str, Any]:
        """The game's own validator; the rewards in their canonical form."""
        card = card_from_definition(kind, body)
        return {**body, "rewards": [reward.to_dict() for reward in card.rewards]}

    return validate_body


def _keywords(kind: CardKind) -> Any:
    def public(view: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        return {**view, "keywords": keywords_shown(card_from_definition(kind, body))}

    return public


CHRONOVORE_KINDS: Mapping[str, KindRules] = {
    kind: KindRules(schema, _ready, is_card=True, validate=_validated(kind), public=_keywords(kind))
    for kind, schema in ((CardKind.MONSTER, MonsterBody), (CardKind.EVENT, EventCardBody))
}
