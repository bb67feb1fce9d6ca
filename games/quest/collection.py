"""Quest's collection rules for the cards service (games/kit/collection.py).

The rules are the rulebook's ("Saved decks", "Card rewards", "Starter grant") in
decks, rewards and starter; this module says which of a published definition's
fields are Quest's game attributes, and puts the pieces in one ``CollectionRules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.collection import STANDARD_FINISH, CardPool, CollectionRules, StarterRules
from games.kit.fair import Draws
from games.kit.refusal import Refusal
from games.quest import decks, rewards, starter
from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from games.quest.content import Affinity, CardKind, Rarity

QUEST_GAME = "quest"
CARD_KINDS = frozenset(CardKind)
# Quest copies are granted by challenge rewards and the starter choice; it has no
# packs, crafting or finishes (rules/quest.txt).
SOURCES = frozenset({"reward", "starter"})


def card_attributes(kind: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """What the cards service keeps of a Quest definition beyond name, kind and rarity:
    what reward and starter pools filter on, and the affinity players see."""
    if kind not in CARD_KINDS:
        raise Refusal("unknown_card_kind", f"{kind!r} is not a kind of Quest card")
    if snapshot.get("rarity") not in set(Rarity):
        raise Refusal("unknown_rarity", f"{snapshot.get('rarity')!r} is not a Quest rarity")
    affinity = snapshot.get("affinity")
    if kind == CardKind.CREATURE and affinity not in set(Affinity):
        raise Refusal("unknown_affinity", f"{affinity!r} is not an affinity")
    return {
        "affinity": affinity if kind == CardKind.CREATURE else None,
        "reward_eligible": bool(snapshot.get("reward_eligible")),
        "evolved": bool(snapshot.get("evolved")),
        "starter": bool(snapshot.get("starter")),
    }


def roll_reward(correct: int, eligible: Mapping[str, Sequence[Any]], draws: Draws) -> list[Any]:
    """The rulebook's roll over the rarities that have eligible definitions, then one
    uniform choice of definition (labelled by its id) for each rarity awarded."""
    by_rarity = {Rarity(rarity): defs for rarity, defs in eligible.items() if defs}
    rarities = rewards.roll_rarities(correct, set(by_rarity), draws)
    return rewards.choose_definitions(rarities, by_rarity, draws, _definition_id)


def _definition_id(definition: Any) -> str:
    return str(definition["id"])


def _choose_starter(
    creatures: Sequence[Any], power_cards: Sequence[Any], draws: Draws
) -> list[Any]:
    return starter.choose_starter_cards(creatures, power_cards, draws, _definition_id)


def _starter_pool(affinity: str) -> CardPool:
    return CardPool(
        kinds=frozenset({CardKind.CREATURE}),
        attributes={"affinity": affinity, "starter": True, "evolved": False},
        rarity=Rarity.COMMON,
    )


def quest_collection(canonical: CanonicalCards = QUEST_CANONICAL) -> CollectionRules:
    """Quest's rules, its starter Power cards named by ``canonical`` (tests name theirs)."""
    return CollectionRules(
        game=QUEST_GAME,
        card_kinds=CARD_KINDS,
        finishes=frozenset({STANDARD_FINISH}),
        sources=SOURCES,
        card_attributes=card_attributes,
        assess_deck=decks.assess,
        clean_deck_name=decks.clean_name,
        max_decks_per_player=decks.MAX_DECKS_PER_PLAYER,
        # Rulebook, "Card rewards": active, reward-eligible, non-evolved Creatures and Power cards.
        reward_pool=CardPool(CARD_KINDS, {"reward_eligible": True, "evolved": False}),
        roll_reward=roll_reward,
        starter=StarterRules(
            offered=starter.offered_affinity,
            pool=_starter_pool,
            lineage_kind=CardKind.POWER_CARD,
            lineage_names=canonical.starter_power_cards,
            choose=_choose_starter,
        ),
    )


QUEST_COLLECTION = quest_collection()
