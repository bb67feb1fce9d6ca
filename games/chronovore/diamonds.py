"""Diamond caps (rules/chronovore.txt, "Diamond copies"), pure: the cards service gives
what the player holds and persists what comes out.

- "A pack will not give you more Diamond copies of one card than a legal deck can hold"
  (the copy limit of its rarity, Diamond copies counted per card: its lineage).
- "On a normal pack or a Golden Core Set pack, that extra becomes Golden, and the next
  Golden card from that set upgrades to Diamond": the extra is Golden and the player is
  owed one upgrade; the next Golden card drawn (later in the same pack, or in a later
  pack) whose card has room for a Diamond copy becomes Diamond and pays it. Ours: a
  Golden card of a full card does not pay it; the debt waits for one that has room.
- "On a Diamond pack, the extra is another Diamond card from the set": another card of
  the same rarity with room, drawn uniformly (fairly, as the pack's own draws); if that
  rarity has none, a rarity with room drawn by the pack's weights, then a card. Ours: if
  no card of the set has room at all, the extra is Golden and owed as on other packs.
- "The shop sells one when that set still has room for at least 5 more Diamond copies":
  ``room`` (the cards service subtracts the copies its unopened Diamond packs promise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.chronovore.content import COPY_LIMIT, Finish, Rarity
from games.kit.fair import Draws
from games.kit.packs import PackCard, PackKind

Pool = Mapping[str, Sequence[Mapping[str, Any]]]  # rarity -> definitions, each with lineage_id
PACK_ROOM = 5  # "room for at least 5 more Diamond copies"


def _card(definition: Mapping[str, Any]) -> Any:
    return definition["lineage_id"]


def _label(definition: Mapping[str, Any]) -> str:
    return str(definition["id"])


# Not ``plain``: never evolved, and mypyc cannot compile ``settle``'s closure in a
# Python class.
@dataclass(frozen=True)
class DiamondCaps:
    """Chronovore's ``FinishCaps`` (games/kit/collection.py)."""

    finish: str = Finish.DIAMOND.value
    pack_room: int = PACK_ROOM

    def cap(self, rarity: str) -> int:
        return COPY_LIMIT[Rarity(rarity)]

    def room(self, pool: Pool, held: Mapping[Any, int]) -> int:
        """Diamond copies the player may still get: per card, its cap minus those held."""
        return sum(
            max(0, self.cap(rarity) - held.get(_card(d), 0))
            for rarity, definitions in pool.items()
            for d in definitions
        )

    def settle(
        self,
        kind: PackKind,
        cards: Sequence[PackCard],
        pool: Pool,
        held: Mapping[Any, int],
        owed: int,
        draws: Draws,
    ) -> tuple[list[PackCard], int]:
        """The pack's cards after the caps, and the upgrades owed after it."""
        counts: MutableMapping[Any, int] = dict(held)

        def has_room(definition: Mapping[str, Any], rarity: str) -> bool:
            return counts.get(_card(definition), 0) < self.cap(rarity)

        gives_golden = Finish.GOLDEN.value in kind.finish_weights
        settled: list[PackCard] = []
        for slot, card in enumerate(cards):
            if card.finish == self.finish and not has_room(card.definition, card.rarity):
                other = None if gives_golden else _another(slot, card, kind, pool, has_room, draws)
                if other is None:
                    settled.append(replace(card, finish=Finish.GOLDEN.value))
                    owed += 1
                    continue
                card = other
            elif card.finish == Finish.GOLDEN and owed and has_room(card.definition, card.rarity):
                card = replace(card, finish=self.finish)
                owed -= 1
            if card.finish == self.finish:
                counts[_card(card.definition)] = counts.get(_card(card.definition), 0) + 1
            settled.append(card)
        return settled, owed


def _another(
    slot: int,
    card: PackCard,
    kind: PackKind,
    pool: Pool,
    has_room: Callable[[Mapping[str, Any], str], bool],
    draws: Draws,
) -> PackCard | None:
    """Another Diamond card of the set for a Diamond pack's extra (module docstring)."""
    open_cards = {r: [d for d in pool.get(r, ()) if has_room(d, r)] for r in kind.rarities}
    rarity = card.rarity
    if not open_cards.get(rarity):
        rarities = [r for r in kind.rarities if open_cards[r] and kind.rarity_weights.get(r, 0)]
        if not rarities:
            return None
        weights = [kind.rarity_weights[r] for r in rarities]
        rarity = draws.weighted(f"extra_rarity.{slot}", rarities, weights)
    definition = draws.choice(f"extra_card.{slot}", open_cards[rarity], _label)
    return PackCard(definition, rarity, Finish.DIAMOND.value)


DIAMOND_CAPS = DiamondCaps()
