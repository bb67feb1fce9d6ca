"""The Quest challenge reward roll (rulebook: "Rewards", "Card rewards").

Pure: given the score, the rarities that have eligible definitions and the player's
provably fair draws (``games.kit.fair``), it returns the rarities awarded; then a
uniform choice of definition per rarity. The odds are integer weights, so a rarity
without eligible definitions drops out and the others keep their proportions exactly.
Persisting the roll (keyed by the attempt) is the service's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from fractions import Fraction
from typing import TypeVar

from games.kit.fair import Draws
from games.quest.content import Rarity

T = TypeVar("T")

# Rulebook: four correct -> one card, 75% Common / 25% Rare (weights in percent).
FOUR_CORRECT_WEIGHTS: Mapping[Rarity, int] = {Rarity.COMMON: 75, Rarity.RARE: 25}
# Rulebook: a perfect score -> each card independently Common 45%, Rare 40%, Epic 14%,
# Legendary 1%.
PERFECT_WEIGHTS: Mapping[Rarity, int] = {
    Rarity.COMMON: 45,
    Rarity.RARE: 40,
    Rarity.EPIC: 14,
    Rarity.LEGENDARY: 1,
}
# Rulebook: a perfect score -> 80% one card, 20% two cards.
PERFECT_CARD_COUNT: Mapping[int, int] = {1: 80, 2: 20}


def redistributed(weights: Mapping[Rarity, int], available: Set[Rarity]) -> dict[Rarity, Fraction]:
    """The probabilities once rarities without eligible definitions drop out: their
    weight is shared out proportionally (what drawing on the kept weights does)."""
    kept = {rarity: w for rarity, w in weights.items() if rarity in available}
    total = sum(kept.values())
    if total == 0:
        return {}
    return {rarity: Fraction(w, total) for rarity, w in kept.items()}


def _pick(key: str, weights: Mapping[Rarity, int], draws: Draws) -> Rarity:
    ordered = sorted(weights, key=list(Rarity).index)
    return draws.weighted(key, ordered, [weights[r] for r in ordered], label=str)


def _kept(weights: Mapping[Rarity, int], available: Set[Rarity]) -> dict[Rarity, int]:
    return {rarity: w for rarity, w in weights.items() if rarity in available}


def roll_rarities(correct: int, available: Set[Rarity], draws: Draws) -> list[Rarity]:
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
        weights = _kept(FOUR_CORRECT_WEIGHTS, available)
        return [_pick("rarity.0", weights, draws)] if weights else []
    weights = _kept(PERFECT_WEIGHTS, available)
    if not weights:
        return []
    count = draws.weighted("count", list(PERFECT_CARD_COUNT), list(PERFECT_CARD_COUNT.values()))
    return [_pick(f"rarity.{i}", weights, draws) for i in range(count)]


def choose_definitions(
    rarities: Sequence[Rarity],
    eligible: Mapping[Rarity, Sequence[T]],
    draws: Draws,
    label: Callable[[T], str] = str,
) -> list[T]:
    """A uniform choice among the eligible definitions of each awarded rarity (in the
    order given: the service lists them by id), each labelled by ``label``."""
    return [draws.choice(f"card.{i}", eligible[rarity], label) for i, rarity in enumerate(rarities)]
