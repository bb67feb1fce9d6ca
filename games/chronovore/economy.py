"""Chronovore's account economy outside a match (rules/chronovore.txt, "Gold",
"Shredding and crafting", "Diamond copies"): the numbers and the pure rules; the cards
service keeps the ledger, the copies and the packs.

- Gold for a finished match: against another player a win 3, a draw 2, a loss 1, plus
  5, 4, 3, 2, 1 for the player's first five completed games of the UTC day; against the
  computer 1 for a finished game; leaving pays nothing (and, ours, is no completed game).
- Card Fragments: shredding a Plain copy gives 1/4/16/64/256 by rarity, crafting one costs
  5/20/80/320/1,280; Golden 4 times both; Diamond neither. For 7 days after a card is
  weakened, shredding a Plain or Golden copy gives that finish's full crafting cost.
- Crafting only up to the copy limit of the card, every finish counted together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from games.chronovore.content import COPY_LIMIT, Finish, Rarity
from games.kit.frozen import plain
from games.kit.refusal import Refusal

GOLD = "gold"
FRAGMENTS = "fragments"

# -- Gold -------------------------------------------------------------------------------

GOLD_AGAINST_PLAYER: Mapping[str, int] = {"win": 3, "draw": 2, "loss": 1}
DAILY_BONUS: tuple[int, ...] = (5, 4, 3, 2, 1)  # the first five completed games of a UTC day
GOLD_AGAINST_COMPUTER = 1  # "A finished game against the computer awards 1 Gold."
# A seat that left (Chronovore's word; "forfeit" is Quest's): no Gold, ever.
LEFT_RESULTS = frozenset({"left", "forfeit"})
COMPLETED_RESULTS = frozenset(GOLD_AGAINST_PLAYER)


def completed(result: str | None) -> bool:
    """A game the seat played to its end (win, draw or loss), not one it left."""
    return result in COMPLETED_RESULTS


def gold_for(result: str | None, against_player: bool, games_today: int) -> int:
    """The Gold of one seat's result; ``games_today`` counts the player's completed
    games against players this UTC day, this one included (1 for the day's first)."""
    if not completed(result):
        return 0
    assert result is not None
    if not against_player:
        return GOLD_AGAINST_COMPUTER
    bonus = DAILY_BONUS[games_today - 1] if 1 <= games_today <= len(DAILY_BONUS) else 0
    return GOLD_AGAINST_PLAYER[result] + bonus


# -- Card Fragments -------------------------------------------------------------------------

SHRED_PLAIN: Mapping[Rarity, int] = {
    Rarity.COMMON: 1,
    Rarity.UNCOMMON: 4,
    Rarity.RARE: 16,
    Rarity.EPIC: 64,
    Rarity.MYTHIC: 256,
}
CRAFT_PLAIN: Mapping[Rarity, int] = {
    Rarity.COMMON: 5,
    Rarity.UNCOMMON: 20,
    Rarity.RARE: 80,
    Rarity.EPIC: 320,
    Rarity.MYTHIC: 1280,
}
FINISH_FACTOR: Mapping[Finish, int] = {Finish.PLAIN: 1, Finish.GOLDEN: 4}  # Diamond: neither
WEAKENED_REFUND = timedelta(days=7)  # "For 7 days after a card is weakened"


def _craftable_finish(finish: str, doing: str) -> Finish:
    if finish not in FINISH_FACTOR:
        raise Refusal(
            "finish_not_craftable",
            f"{finish.capitalize()} copies cannot be {doing}: only Plain and Golden ones",
            {"finish": finish},
        )
    return Finish(finish)


def craft_cost(rarity: str, finish: str) -> int:
    """Card Fragments crafting one copy costs (Plain or Golden)."""
    return CRAFT_PLAIN[Rarity(rarity)] * FINISH_FACTOR[_craftable_finish(finish, "crafted")]


def shred_value(rarity: str, finish: str, weakened: bool) -> int:
    """Card Fragments shredding one copy gives; a weakened card's gives its crafting cost."""
    factor = FINISH_FACTOR[_craftable_finish(finish, "shredded")]
    table = CRAFT_PLAIN if weakened else SHRED_PLAIN
    return table[Rarity(rarity)] * factor


def copy_limit(rarity: str) -> int:
    """How many copies of one card a deck holds, every finish together."""
    return COPY_LIMIT[Rarity(rarity)]


@plain
@dataclass(frozen=True)
class ChronovoreCrafting:
    """Chronovore's ``CraftingRules`` (games/kit/collection.py)."""

    currency: str = FRAGMENTS
    weakened_refund: timedelta = WEAKENED_REFUND
    rarities: tuple[str, ...] = tuple(r.value for r in Rarity)

    def copy_limit(self, rarity: str) -> int:
        return copy_limit(rarity)

    def craft_cost(self, rarity: str, finish: str) -> int:
        return craft_cost(rarity, finish)

    def shred_value(self, rarity: str, finish: str, weakened: bool) -> int:
        return shred_value(rarity, finish, weakened)


@plain
@dataclass(frozen=True)
class ChronovoreGold:
    """Chronovore's ``MatchRewards`` (games/kit/collection.py)."""

    currency: str = GOLD

    def completed(self, result: str | None) -> bool:
        return completed(result)

    def award(self, result: str | None, against_player: bool, games_today: int) -> int:
        return gold_for(result, against_player, games_today)


CHRONOVORE_CRAFTING = ChronovoreCrafting()
CHRONOVORE_GOLD = ChronovoreGold()
