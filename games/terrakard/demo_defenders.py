"""The demo defenders (ours; docs/terrakard.md, "Demo defenders"): a few saved defenses a
demo install offers in the arena, so that a new player who finishes the tutorial has
someone to attack and a pack to win on day one. On a fresh install every real player
is new, hence protected for 48 hours (games/terrakard/arena.py): without them the arena
is empty.

They are not players: no account, no collection, no experience. Each is named with
"(demo)", keeps its level and trophies whatever happens to it, is never protected or
shielded, never goes inactive and earns nothing from a defense. Battle offers only those
the demo seed wrote into its arena (``deckyard seed`` with the demo content, never the
catalogue alone), so a production install has none.

A defender's plan is chosen from the published catalogue by ``demo_plan``: the
automatic plan's choice (games/terrakard/automatic.py, the strongest six that fit the
level's defense budget) made among the weakest ``reach`` of the catalogue, with the
defender's own reserve condition and posture. The same catalogue gives the same plan;
a new version of a card is taken up by the next attack.

Pure: the standard library and the game only (the balance simulations import it).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.terrakard import config
from games.terrakard.automatic import PLAN_CARDS, choose_cards, strength
from games.terrakard.content import Card, Category
from games.terrakard.plans import DefensePlan, Posture, ReserveCondition, Trigger

# Fixed for good: the defenders' ids derive from it and their keys, so a re-seed finds
# the same rows and an attack's record keeps naming the same defender.
NAMESPACE = uuid.UUID("5d3c2a57-4e0b-4c4e-9a57-7d1e6f0b2c11")
DEMO_MARK = "(demo)"


@dataclass(frozen=True)
class DemoDefender:
    key: str  # stable: names the ids; never reused for another defender
    name: str
    level: int
    trophies: int
    reach: Fraction  # the weakest share of the catalogue its plan is chosen from
    posture: Posture
    condition: ReserveCondition

    @property
    def player_id(self) -> uuid.UUID:
        """Its id in the arena (battle) and on its attacks' defending seat."""
        return uuid.uuid5(NAMESPACE, f"player:{self.key}")

    @property
    def target_id(self) -> uuid.UUID:
        """The id the arena offers it by (as a player's, unrelated to ``player_id``)."""
        return uuid.uuid5(NAMESPACE, f"target:{self.key}")

    @property
    def display_name(self) -> str:
        """What a player sees: never mistaken for a player's pseudonym."""
        return f"{self.name} {DEMO_MARK}"


# Ours: a new player is level 1 after the tutorial (25 experience of 50) and sees levels
# 1 to 3 (battle's LEVEL_GAP); the gentlest defenders are there, stronger ones wait
# further up. Trophies spread so the arena's "closest in trophies" order varies. The
# reach, posture and reserve condition of levels 1 to 3 are tuned on the shipped sample
# (docs/balance/terrakard.md, 1,000 attacks each): the starting collection's best deck
# played greedily wins against Quill 67% and Marlo 70%, clicked at random 42% and 34%
# (issue 30's bands: 55-75% and 20-50%); Vesna (level 2) 45% and 18%, Otto (level 3)
# 29% and 9%. Played by most ATK with questions skipped, the same deck in the order the
# collection lists it (by name) beats Quill on every terrain.
DEMO_DEFENDERS: tuple[DemoDefender, ...] = (
    DemoDefender("quill", "Quill the Apprentice", 1, 0, Fraction(1, 11),
                 Posture.BALANCED, ReserveCondition(Trigger.CATEGORY, Category.NATURE_AND_LIFE)),
    DemoDefender("marlo", "Marlo the Cartographer", 1, 40, Fraction(1, 8),
                 Posture.BALANCED, ReserveCondition(Trigger.CATEGORY, Category.GEOGRAPHY)),
    DemoDefender("vesna", "Vesna the Archivist", 2, 80, Fraction(1, 5),
                 Posture.BALANCED, ReserveCondition(Trigger.LOW_HP)),
    DemoDefender("otto", "Otto the Naturalist", 3, 140, Fraction(5, 19),
                 Posture.CAUTIOUS, ReserveCondition(Trigger.CATEGORY, Category.SCIENCES)),
    DemoDefender("ines", "Ines the Curator", 5, 260, Fraction(1),
                 Posture.CAUTIOUS, ReserveCondition(Trigger.LOW_HP)),
    DemoDefender("rook", "Rook the Champion", 8, 480, Fraction(1),
                 Posture.OFFENSIVE, ReserveCondition(Trigger.EPIC_OR_RARER)),
)  # fmt: skip

_BY_PLAYER = {d.player_id: d for d in DEMO_DEFENDERS}
_BY_TARGET = {d.target_id: d for d in DEMO_DEFENDERS}
DEMO_PLAYER_IDS: tuple[uuid.UUID, ...] = tuple(_BY_PLAYER)


def by_player(player_id: uuid.UUID | None) -> DemoDefender | None:
    return None if player_id is None else _BY_PLAYER.get(player_id)


def by_target(target_id: uuid.UUID) -> DemoDefender | None:
    return _BY_TARGET.get(target_id)


def by_key(key: str) -> DemoDefender | None:
    return next((d for d in DEMO_DEFENDERS if d.key == key), None)


def _weakest_first(card: Card) -> tuple[int, int, str, str]:
    return (strength(card), card.cost, card.name.casefold(), card.card_id)


def demo_plan(defender: DemoDefender, catalogue: Sequence[Card]) -> DefensePlan | None:
    """The defender's plan from ``catalogue`` (one card per name counts), legal at its
    level; None when the catalogue cannot make one (fewer than six cards, or none that
    fit the budget). Among the weakest ``reach`` of the catalogue first (at least six
    cards), the whole catalogue if those cannot make a plan."""
    budget = config.budget_for(defender.level).defense
    ranked = sorted(catalogue, key=_weakest_first)
    names = {c.name.casefold() for c in ranked}
    reach = max(PLAN_CARDS, math.ceil(len(names) * defender.reach))
    within: list[Card] = []
    seen: set[str] = set()
    for card in ranked:
        if len(seen) >= reach:
            break
        if card.name.casefold() not in seen:
            seen.add(card.name.casefold())
            within.append(card)
    cards = choose_cards(within, budget) or choose_cards(ranked, budget)
    if cards is None:
        return None
    reserve, *rounds = cards  # the strongest waits in reserve, as the automatic plan's
    return DefensePlan(tuple(rounds), reserve, defender.condition, defender.posture)
