"""Authored content as other services see it: kinds and games (Quest's bounds and
vocabulary live in games/quest/content.py: shared imports no game).

authoring owns the content and its lifecycle; challenge and cards keep read
models of what is published. The names they must agree on live here, once.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CARD_KINDS", "QUESTION_KINDS", "Game", "Kind"]


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
