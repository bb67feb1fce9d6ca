"""The one validator of the effect vocabulary (games/quest/validation.py): what it
accepts, and refusals that name the entry and the parameter."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.kit.refusal import Refusal
from games.quest.validation import (
    parse_condition,
    parse_effect,
    validate_conditions,
    validate_effects,
)
from games.quest.vocabulary import DamageModifier, OncePerMatch, Target


def test_a_valid_list_comes_back_in_canonical_form():
    effects = [{"type": "damage", "amount": 5}, {"type": "lifesteal", "fraction": 1}]
    assert validate_effects(effects) == [
        {"type": "damage", "amount": 5},
        {"type": "lifesteal", "fraction": 1.0},
    ]


def test_an_unknown_type_is_refused_with_the_known_ones_and_its_place():
    with pytest.raises(Refusal) as refused:
        validate_effects(
            [{"type": "damage", "amount": 1}, {"type": "teleport"}], "moves[2].effects"
        )
    assert refused.value.code == "unknown_effect"
    assert refused.value.message == "effect 2 has an unknown type 'teleport'"
    assert refused.value.details["path"] == "moves[2].effects[1]"
    assert "damage" in refused.value.details["known"]


@pytest.mark.parametrize(
    ("entry", "field", "message"),
    [
        ({"type": "damage"}, "amount", "Missing data for required field."),
        ({"type": "damage", "amount": True}, "amount", "Not a valid integer."),
        ({"type": "damage", "amount": 2.0}, "amount", "Not a valid integer."),
        (
            {"type": "damage", "amount": 0},
            "amount",
            "Must be greater than or equal to 1 and less than or equal to 200.",
        ),
        (
            {"type": "power_change", "amount": 1, "target": "both"},
            "target",
            "Must be one of: self, opponent.",
        ),
        ({"type": "damage", "amount": 1, "extra": 1}, "extra", "Unknown field."),
    ],
)
def test_a_bad_parameter_is_refused_by_name(entry, field, message):
    with pytest.raises(Refusal) as refused:
        validate_effects([entry])
    assert refused.value.code == "invalid_effect"
    assert refused.value.details["fields"] == {field: [message]}
    assert refused.value.details["path"] == "effects[0]"


@pytest.mark.parametrize("durations", [{}, {"turns": 1, "charges": 1}])
def test_a_damage_modifier_lasts_for_exactly_one_of_turns_or_charges(durations):
    entry = {"type": "damage_modifier", "target": "self", "applies_to": "dealt", "multiplier": 2}
    with pytest.raises(Refusal) as refused:
        parse_effect(entry | durations)
    assert refused.value.message.endswith("needs exactly one of turns or charges")
    assert parse_effect(entry | {"charges": 2}) == DamageModifier(
        Target.SELF, parse_effect(entry | {"charges": 2}).applies_to, Fraction(2), None, 2
    )


def test_conditions_use_the_same_validator():
    assert validate_conditions([{"type": "once_per_match"}]) == [{"type": "once_per_match"}]
    assert parse_condition({"type": "once_per_match"}) == OncePerMatch()
    with pytest.raises(Refusal) as refused:
        validate_conditions("often")
    assert refused.value.code == "invalid_condition"
