"""Quest's authored-content rules: card kinds, affinities, rarities, the starter set's
numbers and an event's radius. Authoring, cards and challenge agree on them through
this module (shared/content.py re-exports them next to the cross-game kinds)."""

from __future__ import annotations

from enum import StrEnum


class CardKind(StrEnum):
    """The kinds of Quest card (authoring's content kinds of the same names)."""

    CREATURE = "creature"
    POWER_CARD = "power_card"


class Affinity(StrEnum):
    WIT = "Wit"
    GRIT = "Grit"
    SPARK = "Spark"
    SPIRIT = "Spirit"
    MYSTIC = "Mystic"


class Rarity(StrEnum):
    COMMON = "Common"
    RARE = "Rare"
    EPIC = "Epic"
    LEGENDARY = "Legendary"


STARTER_AFFINITIES = (Affinity.WIT, Affinity.GRIT, Affinity.SPARK)  # rulebook: Starter grant
STARTER_CREATURES_PER_AFFINITY = 3  # rulebook: three distinct Common Creatures
STARTER_POWER_CARDS = 2  # rulebook: Field Kit and Reserve Focus

# An event's radius is bounded so the nearby-events query can use a constant
# prefilter with the spatial index (issue 4). The number is ours (assumed):
# large enough for a park or a campus square, small enough to mean "be there".
MAX_EVENT_RADIUS_M = 500
MIN_EVENT_RADIUS_M = 5
