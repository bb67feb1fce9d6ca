"""The Quest challenge reward roll (rulebook: "Rewards", "Card rewards").

Pure: given the score, the rarities that have eligible definitions and a
random source, it returns the rarities awarded; then a uniform choice of
definition per rarity. Persisting the roll (keyed by the attempt) is the
service's job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from fractions import Fraction
from typing import TypeVar

from games.kit.chance import RandomSource
from games.quest.content import Rarity

T = TypeVar("T")

# Rulebook: four correct -> one card, 75% Common / 25% Rare.
FOUR_CORRECT_WEIGHTS: Mapping[Rarity, Fraction] = {
    Rarity.COMMON: Fraction(75, 100),
    Rarity.RARE: Fraction(25, 100),
}
# Rulebook: a perfect score -> each card independently Common 45%, Rare 40%, Epic 14%,
# Legendary 1%.
PERFECT_WEIGHTS: Mapping[Rarity, Fraction] = {
    Rarity.COMMON: Fraction(45, 100),
    Rarity.RARE: Fraction(40, 100),
    Rarity.EPIC: Fraction(14, 100),
    Rarity.LEGENDARY: Fraction(1, 100),
}
# Rulebook: a perfect score -> 80% one card, 20% two cards.
PERFECT_TWO_CARDS = Fraction(20, 100)


def redistributed(
    weights: Mapping[Rarity, Fraction], available: Set[Rarity]
) -> dict[Rarity, Fraction]:
    """Drop rarities without eligible definitions; share their weight out proportionally."""
    kept = {rarity: w for rarity, w in weights.items() if rarity in available}
    total = sum(kept.values(), Fraction(0))
    if total == 0:
        return {}
    return {rarity: w / total for rarity, w in kept.items()}


def _pick(weights: Mapping[Rarity, Fraction], rng: RandomSource) -> Rarity:
    roll = Fraction(rng.random())
    cumulative = Fraction(0)
    ordered = sorted(weights.items(), key=lambda item: list(Rarity).index(item[0]))
    for rarity, weight in ordered:
        cumulative += weight
        if roll < cumulative:
            return rarity
    return ordered[-1][0]  # cumulative is exactly 1; guards a float roll at the top edge


def roll_rarities(correct: int, available: Set[Rarity], rng: RandomSource) -> list[Rarity]:
    """The rarities of the cards a score earns, given which rarities can be awarded.

    Three correct needs an eligible Common. None can exist in practice (an event
    cannot be published without an available Common reward), so the defensive answer
    is no card rather than a substitute: the caller records the empty roll with its
    reason, and nothing is ever granted above what the rulebook allows.
    """
    if not 0 <= correct <= 5:
        raise ValueError("a Quest attempt has five questions")
    if correct <= 2:
        return []
    if correct == 3:
        return [Rarity.COMMON] if Rarity.COMMON in available else []
    if correct == 4:
        weights = redistributed(FOUR_CORRECT_WEIGHTS, available)
        return [_pick(weights, rng)] if weights else []
    weights = redistributed(PERFECT_WEIGHTS, available)
    if not weights:
        return []
    count = 2 if Fraction(rng.random()) < PERFECT_TWO_CARDS else 1
    return [_pick(weights, rng) for _ in range(count)]


def choose_definitions(
    rarities: Sequence[Rarity], eligible: Mapping[Rarity, Sequence[T]], rng: RandomSource
) -> list[T]:
    """A uniform choice among the eligible definitions of each awarded rarity."""
    return [rng.choice(eligible[rarity]) for rarity in rarities]
