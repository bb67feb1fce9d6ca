"""A TerraKard victory made certain, so that a browser journey can open the victory pack
the game itself grants for it.

Damage in TerraKard has no luck (games/terrakard/damage.py): with the knowledge question
turned off, the only random element of an attack is its terrain. So the test chooses,
among the two players' starting collections (read from the API, ATK, DEF and category
included), a defense plan and an attack deck whose cards, played in order, take the
category advantage in every round; and before any attack it plays the same snapshots
through the pure engine on each of the season's terrains: the choice is kept only if the
attacker wins on all of them. The starting collection is the catalogue's first cards
(deterministic, games/terrakard/collection.py), so the two players hold the same cards
and a plan whose rounds can each be beaten exists whenever the catalogue has it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games.terrakard import engine
from games.terrakard.actions import begin, play
from games.terrakard.content import Card, Category, beats
from games.terrakard.plans import DefensePlan, Posture, ReserveCondition, Trigger
from games.terrakard.state import ATTACKER, AttackerSide, DefenseSide
from games.terrakard.terrains import STARTING_TERRAINS

DECK_SIZE, ROUNDS = 8, 5
# The reserve comes in only when the attacker plays an Epic or rarer card: never, for a
# deck of starting cards (Common and Uncommon), so the plan's five rounds are the fight.
RESERVE_CONDITION = {"trigger": "epic_or_rarer"}
POSTURE = "cautious"  # against cards that hold the category advantage, its ATK -10% costs most


@dataclass(frozen=True)
class Victory:
    """The attack deck (its first five cards played in order, round by round), the
    defense plan, and the stars won on each terrain by the pure engine."""

    deck: list[str]
    rounds: list[str]
    reserve: str
    stars: Mapping[str, int]


def snapshot(card: Mapping[str, Any]) -> Card:
    """An owned card as the API shows it, as a match snapshots it."""
    return Card.from_dict({**card, "question": None})


def stars_on_each_terrain(
    deck: Sequence[Mapping[str, Any]],
    rounds: Sequence[Mapping[str, Any]],
    reserve: Mapping[str, Any],
) -> dict[str, int]:
    """The stars of the attack (deck played in order, no question) on each terrain."""
    plan = DefensePlan(
        tuple(snapshot(c) for c in rounds),
        snapshot(reserve),
        ReserveCondition(Trigger(RESERVE_CONDITION["trigger"])),
        Posture(POSTURE),
    )
    side = AttackerSide(tuple(snapshot(c) for c in deck), questions=False)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    stars = {}
    for terrain in STARTING_TERRAINS:
        settings = engine.Settings(terrains=(terrain,))
        state = engine.new_match(side, DefenseSide(plan, "Rival", 1, 0), 1, now, settings)
        state, _ = engine.apply(state, ATTACKER, begin(), now)
        for index in range(ROUNDS):
            if state.finished:
                break
            state, _ = engine.apply(state, ATTACKER, play(index), now)
        assert state.finished, (terrain.name, state.phase)
        stars[terrain.name] = state.stars
    return stars


def _beaters(
    rounds: Sequence[Mapping[str, Any]], cards: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]] | None:
    """For each round's card, a distinct card of the category that beats it (the
    strongest first), or None when the collection has too few."""
    left = sorted(cards, key=lambda c: -(c["atk"] + c["def"]))
    chosen = []
    for card in rounds:
        category = Category(card["category"])
        match = next((c for c in left if beats(Category(c["category"])) == category), None)
        if match is None:
            return None
        left.remove(match)
        chosen.append(match)
    return chosen


def certain_victory(
    attacker_cards: Sequence[Mapping[str, Any]],
    defender_cards: Sequence[Mapping[str, Any]],
    attack_budget: int,
) -> Victory:
    """The weakest plan (rounds by ATK + DEF) the attacker's cards beat round by round on
    every terrain, and the deck that does it (the rest of the deck: the cheapest cards
    left, within the budget)."""
    weakest = sorted(defender_cards, key=lambda c: (c["atk"] + c["def"], c["cost"]))
    for rounds in itertools.combinations(weakest, ROUNDS):
        played = _beaters(rounds, attacker_cards)
        if played is None:
            continue
        rest = sorted((c for c in attacker_cards if c not in played), key=lambda c: c["cost"])
        deck = [*played, *rest[: DECK_SIZE - ROUNDS]]
        if len(deck) < DECK_SIZE or sum(c["cost"] for c in deck) > attack_budget:
            continue
        reserve = next(c for c in weakest if c not in rounds)
        stars = stars_on_each_terrain(deck, rounds, reserve)
        if min(stars.values()) > 0:
            return Victory([c["id"] for c in deck], [c["id"] for c in rounds], reserve["id"],
                           stars)  # fmt: skip
    raise AssertionError("no plan of these starting collections loses on every terrain")
