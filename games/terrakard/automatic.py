"""The automatic plan (rules/terrakard.txt: "Without a valid plan, the server prepares an
automatic plan from your collection"). Ours, deterministic (docs/terrakard.md):

- one copy of each card (the first copy by id), strength = ATK + DEF;
- six cards, chosen one at a time: the strongest card that still lets the plan be
  completed within the automatic budget (four fifths of the level's defense budget,
  rounded down) with the cheapest remaining cards;
- the strongest of the six is the reserve, with the condition "defense below 50% HP";
  the five others play in rounds 1 to 5 from the strongest to the weakest;
- posture Balanced.

Why four fifths: a plan nobody chose is a training target, below what a player who
plans can field ("a plan far below the budget" earns a poorer pack anyway). At the full
budget a new player's starting deck, which holds the same cards, won 28% of attacks
against it played greedily and 9-21% clicking at random; at four fifths (7 of 9 at
level 1) 74% and 21-44%, inside the bands new players need (docs/balance/terrakard.md).

Ties are broken by cost (cheaper first), then name, then copy id. A collection with
fewer than six different cards, or whose six cheapest cards exceed the budget, has no
automatic plan (``None``): the host then has no defense to offer as a target.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.terrakard import config
from games.terrakard.content import Card
from games.terrakard.plans import DefensePlan, Posture, ReserveCondition, Trigger

PLAN_CARDS = config.PLAN_ROUNDS + 1  # five round cards and the reserve
AUTOMATIC_SHARE = (4, 5)  # ours: of the level's defense budget, rounded down
AUTOMATIC_CONDITION = ReserveCondition(Trigger.LOW_HP)
AUTOMATIC_POSTURE = Posture.BALANCED


def strength(card: Card) -> int:
    return card.atk + card.def_


def _order(card: Card) -> tuple[int, int, str, str]:
    return (-strength(card), card.cost, card.name.casefold(), card.card_id)


def _one_copy_each(collection: Sequence[Card]) -> list[Card]:
    first: dict[str, Card] = {}
    for card in sorted(collection, key=lambda c: c.card_id):
        first.setdefault(card.name.casefold(), card)
    return sorted(first.values(), key=_order)


def _cheapest(cards: Sequence[Card], count: int, without: Card) -> int:
    costs = sorted(c.cost for c in cards if c is not without)
    return sum(costs[:count])


def choose_cards(collection: Sequence[Card], budget: int) -> list[Card] | None:
    """Six different cards within ``budget``, strongest first; None if none fit."""
    remaining = _one_copy_each(collection)
    chosen: list[Card] = []
    spent = 0
    while len(chosen) < PLAN_CARDS:
        still_needed = PLAN_CARDS - len(chosen) - 1
        pick = next(
            (
                card
                for card in remaining
                if spent + card.cost + _cheapest(remaining, still_needed, card) <= budget
                and len(remaining) - 1 >= still_needed
            ),
            None,
        )
        if pick is None:
            return None
        chosen.append(pick)
        spent += pick.cost
        remaining = [c for c in remaining if c is not pick]
    return sorted(chosen, key=_order)


def automatic_budget(level: int) -> int:
    """What an automatic plan at ``level`` may spend: four fifths of its defense budget."""
    share, whole = AUTOMATIC_SHARE
    return config.budget_for(level).defense * share // whole


def automatic_plan(collection: Sequence[Card], level: int) -> DefensePlan | None:
    """The automatic plan of a collection at ``level``, or None if it cannot make one."""
    cards = choose_cards(collection, automatic_budget(level))
    if cards is None:
        return None
    reserve, *rounds = cards
    return DefensePlan(tuple(rounds), reserve, AUTOMATIC_CONDITION, AUTOMATIC_POSTURE)
