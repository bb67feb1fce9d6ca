"""The Quest starter grant (rulebook: "Starter grant"): which cards a choice gives.

Pure: the caller passes the published definitions that qualify and the player's
provably fair draws (games/kit/fair.py); the grant it returns is persisted once per
player with its roll, so a retry reads the same cards instead of choosing again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from games.kit.fair import Draws
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
    creatures: Sequence[T], power_cards: Sequence[T], draws: Draws, label: Callable[[T], str] = str
) -> list[T]:
    """Three distinct Creatures of the chosen affinity and the two shared Power cards.

    ``power_cards`` are the active versions of the starter Power card lineages
    (``games.quest.canonical``), one each. ``creatures`` are the active Common starter
    Creatures of that affinity, one version per lineage; when
    authors have published more than three, three are drawn without replacement:
    ``creature.0``, ``creature.1``, ``creature.2``, each a uniform choice among those not
    drawn yet, in the order given (the service lists them by id), labelled by ``label``
    (the grant is persisted, so this roll happens once per player).
    """
    if len(creatures) < STARTER_CREATURES_PER_AFFINITY or len(power_cards) != STARTER_POWER_CARDS:
        raise Refusal(  # a passing state of the catalogue: the cards service answers 503
            "starter_cards_unavailable",
            "the starter cards are not all published right now; nothing was granted",
        )
    if len(creatures) == STARTER_CREATURES_PER_AFFINITY:
        return list(creatures) + list(power_cards)  # nothing to draw: no roll
    remaining = list(creatures)
    chosen: list[T] = []
    for index in range(STARTER_CREATURES_PER_AFFINITY):
        pick = draws.choice(f"creature.{index}", remaining, label)
        chosen.append(pick)
        remaining = [c for c in remaining if c is not pick]
    return chosen + list(power_cards)
