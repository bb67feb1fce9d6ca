"""Chronovore's monsters and events as authoring loads, readies and shows them."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from services.authoring import domain, kinds
from shared.content import Game
from shared.errors import InvalidInput

CV = Game.CHRONOVORE


def monster(**fields):
    return {
        "name": "  Bog   Wight ",
        "card_class": "chaplain",
        "rarity": "rare",
        "attack": 3,
        "health": 6,
        "rewards": [{"type": "next_enemy", "attack": 2, "health": 0, "cost": 0}],
        **fields,
    }


def test_a_monster_is_loaded_with_its_rewards_in_canonical_form():
    loaded = kinds.load_body("monster", CV, monster())
    assert loaded == {
        "name": "Bog Wight",
        "card_class": "chaplain",
        "rarity": "rare",
        "flavor": "",
        "rewards": [{"type": "next_enemy", "attack": 2}],
        "attack": 3,
        "health": 6,
        "initiative": False,
        "weakening": False,
    }
    assert kinds.is_card(CV, "monster") and kinds.card_name("monster", loaded, CV) == "bog wight"


def test_an_event_card_has_a_coins_cost():
    body = {"name": "Toll Gate", "card_class": "neutral", "rarity": "common", "cost": 0}
    loaded = kinds.load_body("event_card", CV, {**body, "rewards": [{"type": "strike"}]})
    assert loaded["cost"] == 0 and kinds.readiness_problems("event_card", CV, loaded) == []
    with pytest.raises(InvalidInput) as refused:
        kinds.load_body("event_card", CV, {**body, "cost": 31})
    assert refused.value.code == "invalid_content"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"card_class": "wizard"}, "invalid_content"),
        ({"rarity": "legendary"}, "invalid_content"),
        ({"health": 0}, "invalid_content"),
        ({"mana": 2}, "invalid_content"),
        ({"rewards": [{"type": "next_enemy", "attack": 1, "cost": 1}]}, "invalid_card"),
        ({"rewards": [{"type": "teleport"}]}, "invalid_card"),
    ],
)
def test_malformed_cards_are_refused_by_the_schema_or_the_games_validator(fields, code):
    with pytest.raises(InvalidInput) as refused:
        kinds.load_body("monster", CV, monster(**fields))
    assert refused.value.code == code


def test_a_card_needs_a_reward_before_review():
    loaded = kinds.load_body("monster", CV, monster(rewards=[]))
    assert kinds.readiness_problems("monster", CV, loaded) == [
        "a Chronovore card needs at least one reward"
    ]


def test_the_public_face_defines_each_keyword_on_the_card():
    loaded = kinds.load_body(
        "monster", CV, monster(rewards=[{"type": "strike"}, {"type": "copy_opposing"}])
    )
    shown = kinds.public_view("monster", CV, loaded)
    assert [k["name"] for k in shown["keywords"]] == [
        "Strike",
        "Copy the card in the opposing slot",
    ]
    assert shown["keywords"][0]["definition"].startswith("Your hero hits the enemy hero once")


def test_quests_event_kind_is_not_chronovores():
    with pytest.raises(InvalidInput) as refused:
        kinds.load_body("event", CV, {})
    assert refused.value.code == "unknown_kind"


def test_only_a_replacement_of_a_published_card_is_marked_as_a_weakening():
    now = datetime(2026, 12, 1, tzinfo=UTC)
    with pytest.raises(InvalidInput) as refused:
        domain.create(uuid.uuid4(), "a", "monster", CV, monster(weakening=True), now)
    assert refused.value.code == "invalid_replacement"
    founding, _ = domain.create(uuid.uuid4(), "a", "monster", CV, monster(), now)
    with pytest.raises(InvalidInput):
        domain.edit(founding, "a", 1, monster(weakening=True), now)
    published = replace(founding, state=domain.State.PUBLISHED)
    weaker, _ = domain.create(
        uuid.uuid4(), "a", "monster", CV, monster(attack=2, weakening=True), now, published
    )
    assert weaker.body["weakening"] is True and weaker.lineage_id == founding.lineage_id
    edited, _ = domain.edit(weaker, "a", 1, monster(attack=1, weakening=True), now)
    assert edited.body["weakening"] is True
    assert kinds.public_view("monster", CV, edited.body)["weakening"] is True  # cards reads it
