"""Our Quest card catalogue (services/authoring/seed/quest_cards.json) keeps the
rulebook's promises: 24 Creatures and six Power cards, the starter grant, the
CPU deck, every effect and condition in use, every definition valid and ready.
docs/card-catalogue.md describes the same cards with the same numbers.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.quest.content import (
    STARTER_AFFINITIES,
    STARTER_CREATURES_PER_AFFINITY,
    STARTER_POWER_CARDS,
    Affinity,
    Rarity,
)
from games.quest.validation import CONDITIONS, EFFECTS
from services.authoring.kinds import MOVES_PER_CREATURE, card_name, load_body, readiness_problems
from shared.content import Kind

REPO = Path(__file__).parents[4]
CATALOGUE = REPO / "services/authoring/seed/quest_cards.json"
DOC = REPO / "docs/card-catalogue.md"

RARITY_COST = {Rarity.COMMON: 1, Rarity.RARE: 2, Rarity.EPIC: 3, Rarity.LEGENDARY: 4}
CPU_CREATURES = ("Quillip", "Voltiki", "Karrik")
STARTER_POWER_NAMES = {"Field Kit", "Reserve Focus"}
CPU_DECK = (*CPU_CREATURES, *sorted(STARTER_POWER_NAMES))
MAX_DECK_COST = 10
MAX_EVOLVED = 2

ENTRIES: list[dict[str, Any]] = json.loads(CATALOGUE.read_text(encoding="utf-8"))
BODIES = [entry["body"] for entry in ENTRIES]
CREATURES = [e["body"] for e in ENTRIES if e["kind"] == Kind.CREATURE]
POWER_CARDS = [e["body"] for e in ENTRIES if e["kind"] == Kind.POWER_CARD]
BY_NAME = {body["name"]: body for body in BODIES}


def _moves() -> list[dict[str, Any]]:
    return [move for creature in CREATURES for move in creature["moves"]]


def _effects() -> list[dict[str, Any]]:
    return [e for move in _moves() for e in move["effects"]] + [
        e for card in POWER_CARDS for e in card["effects"]
    ]


def test_thirty_definitions_24_creatures_and_six_power_cards():
    assert len(ENTRIES) == 30
    assert all(set(entry) == {"kind", "body"} for entry in ENTRIES)
    assert len(CREATURES) == 24
    assert len(POWER_CARDS) == 6


@pytest.mark.parametrize("entry", ENTRIES, ids=[body["name"] for body in BODIES])
def test_every_definition_is_valid_and_ready(entry):
    loaded = load_body(entry["kind"], "quest", entry["body"])
    assert readiness_problems(entry["kind"], "quest", loaded) == []
    # The file is already canonical: loading changes nothing but defaults we also spell out.
    assert loaded == entry["body"]


def test_creatures_use_all_five_affinities_and_power_cards_are_typeless():
    assert {c["affinity"] for c in CREATURES} == set(Affinity)
    assert all("affinity" not in card for card in POWER_CARDS)


def test_both_categories_use_every_rarity():
    assert {c["rarity"] for c in CREATURES} == set(Rarity)
    assert {c["rarity"] for c in POWER_CARDS} == set(Rarity)


def test_three_common_starter_creatures_for_each_starter_affinity():
    starters = [c for c in CREATURES if c["starter"]]
    assert all(c["rarity"] == Rarity.COMMON for c in starters)
    per_affinity = Counter(c["affinity"] for c in starters)
    assert per_affinity == dict.fromkeys(STARTER_AFFINITIES, STARTER_CREATURES_PER_AFFINITY)
    assert per_affinity[Affinity.SPIRIT] == per_affinity[Affinity.MYSTIC] == 0


def test_starter_power_cards_are_field_kit_and_reserve_focus():
    starters = [card for card in POWER_CARDS if card["starter"]]
    assert {card["name"] for card in starters} == STARTER_POWER_NAMES
    assert len(starters) == STARTER_POWER_CARDS
    assert all(card["rarity"] == Rarity.COMMON for card in starters)


def test_cpu_deck_exists_and_is_legal():
    deck = [BY_NAME[name] for name in CPU_DECK]
    creatures = [body for body in deck if "affinity" in body]
    assert [c["name"] for c in creatures] == list(CPU_CREATURES)
    assert len(deck) - len(creatures) == 2
    assert sum(RARITY_COST[Rarity(body["rarity"])] for body in deck) <= MAX_DECK_COST


def test_every_effect_and_condition_type_is_used():
    assert {e["type"] for e in _effects()} == set(EFFECTS)
    assert {c["type"] for move in _moves() for c in move["conditions"]} == set(CONDITIONS)


def test_names_are_unique_after_trimming_and_case_folding():
    names = [card_name(entry["kind"], entry["body"]) for entry in ENTRIES]
    assert len(set(names)) == len(names)
    assert all(body["name"] == " ".join(body["name"].split()) for body in BODIES)


def test_evolved_definitions_are_few_high_rarity_creatures_outside_the_reward_pool():
    evolved = [body for body in BODIES if body["evolved"]]
    assert 0 < len(evolved) <= MAX_EVOLVED
    for body in evolved:
        assert "affinity" in body
        assert body["rarity"] in (Rarity.EPIC, Rarity.LEGENDARY)
        assert body["reward_eligible"] is False
        assert body["starter"] is False
    assert all(body["reward_eligible"] for body in BODIES if not body["evolved"])


@pytest.mark.parametrize("rarity", list(Rarity))
def test_each_rarity_has_a_reward_eligible_non_evolved_definition(rarity):
    assert any(
        body["rarity"] == rarity and body["reward_eligible"] and not body["evolved"]
        for body in BODIES
    )


@pytest.mark.parametrize("creature", CREATURES, ids=[c["name"] for c in CREATURES])
def test_creature_numbers_are_balanced_and_never_stuck(creature):
    assert 40 <= creature["hp"] <= 120
    assert 5 <= creature["max_power"] <= 15
    moves = creature["moves"]
    assert len(moves) == MOVES_PER_CREATURE
    assert len({m["name"].casefold() for m in moves}) == MOVES_PER_CREATURE
    for move in moves:
        assert 0 <= move["power_cost"] <= min(6, creature["max_power"])
        assert move["type"] in ("Basic", creature["affinity"])
    assert any(m["power_cost"] == 0 and not m["conditions"] for m in moves)
    assert any(m["type"] == creature["affinity"] for m in moves)


def test_damage_amounts_are_readable():
    assert all(5 <= e["amount"] <= 40 for e in _effects() if e["type"] == "damage")


def test_lifesteal_follows_damage_in_the_same_action():
    actions = [move["effects"] for move in _moves()] + [card["effects"] for card in POWER_CARDS]
    for effects in actions:
        for position, effect in enumerate(effects):
            if effect["type"] == "lifesteal":
                assert any(e["type"] == "damage" for e in effects[:position])


def test_flavor_text_is_short_and_present():
    assert all(0 < len(body["flavor"]) <= 100 for body in BODIES)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _summary_row(body: dict[str, Any]) -> str:
    creature = "affinity" in body
    status = "evolved (not in rewards)" if body["evolved"] else "reward-eligible"
    cells = [
        body["name"],
        "Creature" if creature else "Power card",
        body["affinity"] if creature else "—",
        body["rarity"],
        str(RARITY_COST[Rarity(body["rarity"])]),
        str(body["hp"]) if creature else "—",
        str(body["max_power"]) if creature else "—",
        _yes(body["starter"]),
        status,
    ]
    return "| " + " | ".join(cells) + " |"


def test_doc_lists_every_card_with_the_catalogue_numbers():
    doc = DOC.read_text(encoding="utf-8")
    for body in BODIES:
        assert body["name"] in doc
        assert _summary_row(body) in doc, body["name"]
    for creature in CREATURES:
        for move in creature["moves"]:
            assert f"| {move['name']} | {move['type']} | {move['power_cost']} |" in doc


def test_doc_defines_every_effect_and_condition():
    doc = DOC.read_text(encoding="utf-8")
    for name in (*EFFECTS, *CONDITIONS):
        assert f"`{name}`" in doc


REPLACEMENTS: list[dict[str, Any]] = json.loads(
    (REPO / "services/authoring/seed/quest_card_replacements.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("entry", REPLACEMENTS, ids=[e["ref"] for e in REPLACEMENTS])
def test_each_shipped_replacement_is_a_valid_new_version_of_the_same_card(entry):
    """docs/balance.md: the rebalance changes numbers only, never what a card is."""
    assert set(entry) == {"ref", "replaces", "kind", "body"}
    founder = BY_NAME[entry["body"]["name"]]
    assert entry["replaces"] == "card:" + founder["name"].casefold()
    loaded = load_body(entry["kind"], "quest", entry["body"])
    assert readiness_problems(entry["kind"], "quest", loaded) == [] and loaded == entry["body"]
    same = ("name", "rarity", "affinity", "starter", "reward_eligible", "evolved", "flavor")
    assert {k: entry["body"].get(k) for k in same} == {k: founder.get(k) for k in same}
    assert [(m["name"], m["type"], m["power_cost"]) for m in entry["body"]["moves"]] == [
        (m["name"], m["type"], m["power_cost"]) for m in founder["moves"]
    ]
    test_creature_numbers_are_balanced_and_never_stuck(entry["body"])
    assert all(
        5 <= e["amount"] <= 40
        for m in entry["body"]["moves"]
        for e in m["effects"]
        if e["type"] == "damage"
    )
