"""Card vocabulary: kinds, classes, rarities, keywords, and the one validator."""

import pytest

from games.chronovore.cards import card_from_definition, validate_rewards
from games.chronovore.content import (
    COPY_LIMIT,
    KEYWORDS,
    PLAY_STYLE,
    CardClass,
    Keyword,
    Rarity,
)
from games.kit.refusal import Refusal


def body(**fields):
    base = {"name": "Imp", "card_class": "neutral", "rarity": "common", "rewards": []}
    return {**base, **fields}


def test_every_class_has_its_play_style_from_the_rulebook():
    assert PLAY_STYLE[CardClass.MEDIC] == "Healing and armor."
    assert PLAY_STYLE[CardClass.CAPTAIN] == "Attacking the enemy hero with weapons and Strike."
    assert PLAY_STYLE[CardClass.CHAPLAIN] == "Interference with enemy cards."
    assert PLAY_STYLE[CardClass.ENGINEER] == "Creating a weapon and making it stronger."
    assert PLAY_STYLE[CardClass.PRIEST] == "Copying the card in the opposing slot."
    assert set(PLAY_STYLE) == set(CardClass)


def test_every_keyword_has_its_name_and_definition():
    assert KEYWORDS[Keyword.INITIATIVE].name == "Initiative"
    assert KEYWORDS[Keyword.COPY_OPPOSING].name == "Copy the card in the opposing slot"
    assert KEYWORDS[Keyword.NEXT_ENEMY].name == "The next enemy card"
    assert KEYWORDS[Keyword.STRIKE].definition.startswith("Your hero hits the enemy hero once")
    assert set(KEYWORDS) == set(Keyword)


def test_copy_limits_by_rarity():
    assert [COPY_LIMIT[r] for r in Rarity] == [4, 3, 2, 1, 1]


def test_a_monster_reads_attack_health_initiative_and_rewards():
    card = card_from_definition(
        "monster",
        body(
            attack=3,
            health=5,
            initiative=True,
            rewards=[{"type": "coins", "amount": 2}, {"type": "strike"}],
        ),
    )
    assert (card.attack, card.health, card.initiative) == (3, 5, True)
    assert card.keywords == (Keyword.INITIATIVE, Keyword.STRIKE)
    assert card_from_definition("monster", card.to_dict()) == card


def test_an_event_reads_its_coins_cost_and_0_is_allowed():
    assert card_from_definition("event_card", body(cost=0)).cost == 0
    assert card_from_definition("event_card", body(cost=30)).cost == 30
    with pytest.raises(Refusal):
        card_from_definition("event_card", body(cost=-1))
    with pytest.raises(Refusal):
        card_from_definition("event_card", body(cost=31))


@pytest.mark.parametrize(
    ("fields", "ok"),
    [
        ({"attack": 0, "health": 1}, True),
        ({"attack": 30, "health": 60}, True),
        ({"attack": 31, "health": 5}, False),
        ({"attack": 1, "health": 0}, False),
        ({"attack": 1, "health": 61}, False),
        ({"attack": 1.5, "health": 2}, False),
        ({"attack": True, "health": 2}, False),
        ({"attack": 1, "health": 2, "initiative": "yes"}, False),
    ],
)
def test_monster_numbers_within_bounds(fields, ok):
    if ok:
        card_from_definition("monster", body(**fields))
    else:
        with pytest.raises(Refusal):
            card_from_definition("monster", body(**fields))


@pytest.mark.parametrize(
    "bad",
    [
        {"card_class": "wizard"},
        {"rarity": "legendary"},
        {"name": "  "},
        {"rewards": [{"type": "mana", "amount": 1}]},
        {"rewards": [{"type": "coins", "amount": 0}]},
        {"rewards": [{"type": "strength", "amount": 0}]},
        {"rewards": [{"type": "coins", "amount": 2, "attack": 1}]},
        {"rewards": [{"type": "weapon", "attack": 0, "durability": 2}]},
        {"rewards": [{"type": "upgrade"}]},
        {"rewards": [{"type": "next_enemy"}]},
        {"rewards": [{"type": "next_enemy", "attack": 1, "cost": 1}]},
        {"rewards": [{"type": "strike"}] * 7},
        {"rewards": "coins"},
    ],
)
def test_the_validator_refuses_malformed_cards(bad):
    with pytest.raises(Refusal) as refused:
        card_from_definition("monster", body(attack=1, health=1, **bad))
    assert refused.value.code == "invalid_card"


def test_an_unknown_kind_is_refused():
    with pytest.raises(Refusal) as refused:
        card_from_definition("spell", body())
    assert refused.value.code == "unknown_card_kind"


def test_a_strength_reward_may_be_a_price():
    assert validate_rewards([{"type": "strength", "amount": -1}]) == [
        {"type": "strength", "amount": -1}
    ]


def test_rewards_come_back_in_canonical_form():
    assert validate_rewards(
        [{"type": "next_enemy", "attack": 0, "health": 2, "initiative": False, "cost": 0}]
    ) == [{"type": "next_enemy", "health": 2}]
