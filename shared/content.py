"""Authored content as other services see it: kinds and games (Quest's bounds: games/quest).

authoring owns the content and its lifecycle; challenge and cards keep read
models of what is published. The names and bounds they must agree on live
here, once.
"""

from __future__ import annotations

from enum import StrEnum

# Quest's rules live in games/quest; re-exported here for the services that read them
# with the cross-game names below.
from games.quest.content import (
    MAX_EVENT_RADIUS_M,
    MIN_EVENT_RADIUS_M,
    STARTER_AFFINITIES,
    STARTER_CREATURES_PER_AFFINITY,
    STARTER_POWER_CARDS,
    Affinity,
    Rarity,
)

__all__ = [
    "CARD_KINDS",
    "MAX_EVENT_RADIUS_M",
    "MIN_EVENT_RADIUS_M",
    "QUESTION_KINDS",
    "STARTER_AFFINITIES",
    "STARTER_CREATURES_PER_AFFINITY",
    "STARTER_POWER_CARDS",
    "Affinity",
    "Game",
    "Kind",
    "Rarity",
]


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
