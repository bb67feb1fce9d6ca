"""The Quest starter grant (rulebook: "Starter grant"): which cards a choice gives.

Pure: the caller passes the published definitions that qualify and a random
source; the grant it returns is persisted once per player, so a retry reads
the same cards instead of choosing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.kit.chance import RandomSource
from games.kit.refusal import Refusal
from games.quest.content import (
    STARTER_AFFINITIES,
    STARTER_CREATURES_PER_AFFINITY,
    STARTER_POWER_CARDS,
    Affinity,
)

T = TypeVar("T")


def offered_affinity(affinity: str) -> Affinity:
    """Wit, Grit or Spark; Spirit and Mystic grants are historical, not offered."""
    if affinity not in {a.value for a in Affinity}:
        raise Refusal("unknown_affinity", f"{affinity!r} is not an affinity")
    if affinity not in STARTER_AFFINITIES:
        raise Refusal(
            "starter_affinity_not_offered",
            f"{affinity} is not offered as a starter; choose Wit, Grit or Spark",
        )
    return Affinity(affinity)


def choose_starter_cards(
    creatures: Sequence[T], power_cards: Sequence[T], rng: RandomSource
) -> list[T]:
    """Three distinct Creatures of the chosen affinity and the two shared Power cards.

    ``power_cards`` are the active versions of the starter Power card lineages
    (``games.quest.canonical``), one each. ``creatures`` are the active Common starter
    Creatures of that affinity, one version per lineage; when
    authors have published more than three, three are drawn at random (the grant
    is persisted, so this draw happens once per player).
    """
    if len(creatures) < STARTER_CREATURES_PER_AFFINITY or len(power_cards) != STARTER_POWER_CARDS:
        raise Refusal(  # a passing state of the catalogue: the cards service answers 503
            "starter_cards_unavailable",
            "the starter cards are not all published right now; nothing was granted",
        )
    chosen = (
        list(creatures)
        if len(creatures) == STARTER_CREATURES_PER_AFFINITY
        else rng.sample(list(creatures), STARTER_CREATURES_PER_AFFINITY)
    )
    return chosen + list(power_cards)
