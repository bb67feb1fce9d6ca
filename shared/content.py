"""Authored content as other services see it: kinds, games, shared bounds.

authoring owns the content and its lifecycle; challenge and cards keep read
models of what is published. The names and bounds they must agree on live
here, once.
"""

from __future__ import annotations

from enum import StrEnum


class Game(StrEnum):
    QUEST = "quest"
    TERRAKARD = "terrakard"
    CHRONOVORE = "chronovore"


class Kind(StrEnum):
    QUESTION = "question"  # Quest multiple-choice question
    ORDERING_QUESTION = "ordering_question"  # Quest ordering question (four items)
    CHALLENGE = "challenge"
    EVENT = "event"
    CREATURE = "creature"  # Quest Creature card definition
    POWER_CARD = "power_card"  # Quest Power card definition
    CAMPAIGN = "campaign"


CARD_KINDS = frozenset({Kind.CREATURE, Kind.POWER_CARD})
QUESTION_KINDS = frozenset({Kind.QUESTION, Kind.ORDERING_QUESTION})


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
