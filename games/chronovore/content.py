"""Chronovore's card vocabulary outside any one match (rules/chronovore.txt).

Kinds, classes with the play style the rulebook gives each, rarities with their copy
limits, the keywords with the definitions players read, and the numbers of a deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

GAME = "chronovore"


class CardKind(StrEnum):
    MONSTER = "monster"
    # The rulebook's "event". Authoring keeps Quest's geofenced ``event`` kind, whose
    # dependency checks are not keyed by game, so ours has a name of its own (docs).
    EVENT = "event_card"


class CardClass(StrEnum):
    MEDIC = "medic"
    CAPTAIN = "captain"
    CHAPLAIN = "chaplain"
    ENGINEER = "engineer"
    PRIEST = "priest"
    NEUTRAL = "neutral"


HERO_CLASSES = tuple(c for c in CardClass if c is not CardClass.NEUTRAL)

# Rulebook, "Decks": the play style of each class.
PLAY_STYLE: Mapping[CardClass, str] = {
    CardClass.MEDIC: "Healing and armor.",
    CardClass.CAPTAIN: "Attacking the enemy hero with weapons and Strike.",
    CardClass.CHAPLAIN: "Interference with enemy cards.",
    CardClass.ENGINEER: "Creating a weapon and making it stronger.",
    CardClass.PRIEST: "Copying the card in the opposing slot.",
    CardClass.NEUTRAL: "Neutral cards fit every class.",
}


class Rarity(StrEnum):
    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    EPIC = "epic"
    MYTHIC = "mythic"


# Rulebook, "Decks": copies of one card a deck may hold, every finish counted together.
# Mythic: one Mythic card in the whole deck (MAX_MYTHIC_CARDS), so one copy as well.
COPY_LIMIT: Mapping[Rarity, int] = {
    Rarity.COMMON: 4,
    Rarity.UNCOMMON: 3,
    Rarity.RARE: 2,
    Rarity.EPIC: 1,
    Rarity.MYTHIC: 1,
}
MAX_MYTHIC_CARDS = 1
DECK_SIZE = 30  # rulebook: "A legal deck has exactly 30 cards."


class Finish(StrEnum):
    """Rulebook, "Packs and finishes": cosmetic; the same card in a match."""

    PLAIN = "plain"
    GOLDEN = "golden"
    DIAMOND = "diamond"


class Keyword(StrEnum):
    INITIATIVE = "initiative"
    STRIKE = "strike"
    COPY_OPPOSING = "copy_opposing"
    NEXT_ENEMY = "next_enemy"


@dataclass(frozen=True)
class KeywordText:
    """A bold word on a card and the definition a player reads resting on it."""

    name: str
    definition: str
    # True: the definition quotes the rulebook; False: the rulebook is silent and the
    # words are ours (docs/chronovore.md, "Keywords").
    from_rulebook: bool


# Rulebook, "Cards, monsters, and events": "Bold words on a card are keywords. Rest on the
# card to read the definition." The one table every card's keywords come from
# (``cards.keywords_shown``): Initiative (a monster's, or the next enemy monster's) and
# the rewards written in the card's text ("Rewards and keywords"). Every definition is
# quoted; the corner rewards (Coins, Armor, ..., the anvil) are symbols, not bold words.
KEYWORDS: Mapping[Keyword, KeywordText] = {
    # "Initiative means this monster strikes the hero first."
    Keyword.INITIATIVE: KeywordText(
        "Initiative", "This monster strikes the hero first.", from_rulebook=True
    ),
    Keyword.STRIKE: KeywordText(
        "Strike",
        "Your hero hits the enemy hero once, for your current attack. A weapon used this "
        "way spends 1 durability. Strike happens only after the card has paid off: the "
        "monster was defeated, or the event was paid.",
        from_rulebook=True,
    ),
    Keyword.COPY_OPPOSING: KeywordText(
        "Copy the card in the opposing slot",
        "You gain a copy of the card your opponent played in that same slot. The copy goes "
        "to your hand. If that slot is empty, you copy nothing. A copy past the hand limit "
        "is discarded.",
        from_rulebook=True,
    ),
    Keyword.NEXT_ENEMY: KeywordText(
        "The next enemy card",
        "When you defeat the monster, or pay the event, the card can make your opponent's "
        "next monster harder for them to fight, or raise the Coins cost of their next "
        "event. The change waits for that later card.",
        from_rulebook=True,
    ),
}
