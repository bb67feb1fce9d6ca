"""Chronovore's collection rules for the cards service (games/kit/collection.py).

Cards come from packs and crafting; a new account starts with packs, not cards;
finishes are Plain, Golden and Diamond; a deck is judged by ``decks.assess``. A
definition's game attributes are its class, its name and its kind's numbers as the
card (so a deck's copies can be counted per card and by class); the copy's card
identity is its lineage, which the service passes as ``CardCopy.card``. A card's face
in the service's answers adds its keywords with their definitions (``card_face``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.chronovore import decks
from games.chronovore.cards import card_from_definition, keywords_shown
from games.chronovore.content import GAME, CardKind, Finish
from games.chronovore.diamonds import DIAMOND_CAPS
from games.chronovore.economy import CHRONOVORE_CRAFTING, CHRONOVORE_GOLD
from games.kit.collection import CardPool, CollectionRules
from games.kit.fair import Draws

CARD_KINDS = frozenset(CardKind)
SOURCES = frozenset({"pack", "craft"})
# Rulebook, "Golden Core Set": "A new account starts with 30 ordinary Core Set packs, 1
# Golden Core Set pack, and an empty collection." (pack kinds of economy_data).
STARTING_PACKS = (("core", 30), ("golden", 1))


def card_attributes(kind: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """What the cards service keeps of a definition beyond name, kind and rarity."""
    card = card_from_definition(kind, snapshot)
    return {"card_class": card.card_class.value, "name": card.name}


def card_face(kind: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """Each keyword the card shows, with its definition (rulebook: "Bold words on a card
    are keywords. Rest on the card to read the definition.")."""
    return {"keywords": keywords_shown(card_from_definition(kind, snapshot))}


def roll_reward(score: int, eligible: Mapping[str, Sequence[Any]], draws: Draws) -> list[Any]:
    """Chronovore has no challenge rewards (its cards come from packs): never asked."""
    raise ValueError("Chronovore cards are not challenge rewards")


CHRONOVORE_COLLECTION = CollectionRules(
    game=GAME,
    card_kinds=CARD_KINDS,
    finishes=frozenset(Finish),
    sources=SOURCES,
    card_attributes=card_attributes,
    assess_deck=decks.assess,
    clean_deck_name=decks.clean_name,
    max_decks_per_player=decks.MAX_DECKS_PER_PLAYER,
    reward_pool=CardPool(frozenset()),
    roll_reward=roll_reward,
    default_finish=Finish.PLAIN.value,
    work_in_progress=decks.WORK_IN_PROGRESS,
    starting_packs=STARTING_PACKS,
    finish_caps=DIAMOND_CAPS,
    crafting=CHRONOVORE_CRAFTING,
    match_rewards=CHRONOVORE_GOLD,
    card_face=card_face,
)
