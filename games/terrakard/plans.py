"""Attack decks and defense plans (rules/terrakard.txt, "Attack deck and defense plan",
"Defense postures", "Reserve card"): their shapes and their legality.

An attack deck is 8 cards whose total cost stays within the budget of the player's
level; a defense plan is 5 cards in the order of the rounds, one reserve card with one
condition, and one posture. Each rule broken is a ``Problem`` with a stable code, in a
fixed order (games.kit.collection's ``Assessment``, as Quest's decks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

from games.kit.collection import Assessment, Problem
from games.kit.frozen import Frozen
from games.kit.refusal import Refusal
from games.terrakard import config
from games.terrakard.content import Card, Category

ONE = Fraction(1)


class Posture(StrEnum):
    CAUTIOUS = "cautious"
    BALANCED = "balanced"
    OFFENSIVE = "offensive"


# Rulebook, "Defense postures": (ATK factor, DEF factor) for every defense card played,
# the reserve included.
POSTURE_FACTORS: Mapping[Posture, tuple[Fraction, Fraction]] = {
    Posture.CAUTIOUS: (Fraction(90, 100), Fraction(110, 100)),  # ATK -10%, DEF +10%
    Posture.BALANCED: (ONE, ONE),  # no change
    Posture.OFFENSIVE: (Fraction(110, 100), Fraction(90, 100)),  # ATK +10%, DEF -10%
}


class Trigger(StrEnum):
    """Rulebook, "Reserve card": the three conditions a plan chooses among."""

    CATEGORY = "category"  # the attacker plays a card of a chosen category
    EPIC_OR_RARER = "epic_or_rarer"  # the attacker plays a card of rarity Epic or rarer
    LOW_HP = "low_hp"  # the defense's HP below 50% of their maximum at the round's start


class ReserveCondition(Frozen):
    """Frozen by convention (``games.kit.frozen.Frozen``: compiled, a native class)."""

    trigger: Trigger
    category: Category | None  # the chosen category (CATEGORY only)

    def __init__(self, trigger: Trigger, category: Category | None = None) -> None:
        self.trigger = trigger
        self.category = category

    def fields(self) -> dict[str, Any]:
        return {"trigger": self.trigger, "category": self.category}

    def to_dict(self) -> dict[str, Any]:
        return {"trigger": str(self.trigger), "category": self.category and str(self.category)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReserveCondition:
        try:
            trigger = Trigger(data["trigger"])
            chosen = data.get("category")
            category = None if chosen is None else Category(chosen)
        except (KeyError, ValueError):
            raise Refusal("invalid_reserve_condition", "unknown reserve condition") from None
        if (trigger is Trigger.CATEGORY) != (category is not None):
            raise Refusal(
                "invalid_reserve_condition",
                "a category condition names one category; the other conditions none",
            )
        return cls(trigger, category)


class DefensePlan(Frozen):
    """Frozen by convention (``games.kit.frozen.Frozen``: compiled, a native class)."""

    rounds: tuple[Card, ...]  # in the order of the rounds
    reserve: Card
    condition: ReserveCondition
    posture: Posture

    def __init__(
        self,
        rounds: tuple[Card, ...],
        reserve: Card,
        condition: ReserveCondition,
        posture: Posture,
    ) -> None:
        self.rounds = rounds
        self.reserve = reserve
        self.condition = condition
        self.posture = posture

    def fields(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "reserve": self.reserve,
            "condition": self.condition,
            "posture": self.posture,
        }

    def replace(self, **changes: Any) -> DefensePlan:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning)."""
        return DefensePlan(**{**self.fields(), **changes})

    @property
    def cards(self) -> tuple[Card, ...]:
        return (*self.rounds, self.reserve)

    @property
    def cost(self) -> int:
        return sum(card.cost for card in self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": [c.to_dict() for c in self.rounds],
            "reserve": self.reserve.to_dict(),
            "condition": self.condition.to_dict(),
            "posture": str(self.posture),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DefensePlan:
        return cls(
            rounds=tuple(Card.from_dict(c) for c in data["rounds"]),
            reserve=Card.from_dict(data["reserve"]),
            condition=ReserveCondition.from_dict(data["condition"]),
            posture=Posture(data["posture"]),
        )


def _duplicates(cards: Sequence[Card], what: str) -> list[Problem]:
    problems = []
    if len({c.card_id for c in cards}) != len(cards):
        problems.append(Problem("duplicate_copy", f"{what} holds each owned copy once"))
    names: dict[str, int] = {}
    for card in cards:
        key = card.name.casefold()
        names[key] = names.get(key, 0) + 1
    if any(n > config.MAX_COPIES_OF_A_CARD for n in names.values()):
        problems.append(
            Problem(
                "duplicate_card",
                f"{what} holds a card at most {config.MAX_COPIES_OF_A_CARD} time(s)",
            )
        )
    return problems


def _unowned(cards: Sequence[Card], owned: frozenset[str] | None) -> list[Problem]:
    if owned is not None and any(c.card_id not in owned for c in cards):
        return [Problem("card_not_owned", "every card must be one of your own copies")]
    return []


def assess_deck(
    cards: Sequence[Card], level: int, owned: frozenset[str] | None = None
) -> Assessment:
    """An attack deck: 8 cards, each copy and card once, within the level's attack budget."""
    cards = tuple(cards)
    cost = sum(c.cost for c in cards)
    budget = config.budget_for(level).attack
    problems = []
    if len(cards) != config.DECK_SIZE:
        problems.append(
            Problem("deck_size", f"a deck has exactly {config.DECK_SIZE} cards, not {len(cards)}")
        )
    problems += _duplicates(cards, "a deck")
    problems += _unowned(cards, owned)
    if cost > budget:
        problems.append(
            Problem("over_budget", f"the deck costs {cost}; level {level} allows {budget}")
        )
    return Assessment(not problems, cost, tuple(problems))


def assess_plan(plan: DefensePlan, level: int, owned: frozenset[str] | None = None) -> Assessment:
    """A defense plan: 5 round cards and a reserve, six different cards, within the
    level's defense budget (ours: the rulebook sets a budget for decks; a plan's keeps
    two players of one level equally strong in defense too)."""
    budget = config.budget_for(level).defense
    problems = []
    if len(plan.rounds) != config.PLAN_ROUNDS:
        problems.append(
            Problem(
                "plan_size",
                f"a plan has exactly {config.PLAN_ROUNDS} round cards, not {len(plan.rounds)}",
            )
        )
    problems += _duplicates(plan.cards, "a plan")
    problems += _unowned(plan.cards, owned)
    if plan.cost > budget:
        problems.append(
            Problem("over_budget", f"the plan costs {plan.cost}; level {level} allows {budget}")
        )
    return Assessment(not problems, plan.cost, tuple(problems))


def far_below_budget(plan_cost: int, level: int) -> bool:
    """Ours: a plan "far below the budget" (the attacker's pack is less rich)."""
    return plan_cost < config.budget_for(level).defense * config.FAR_BELOW_SHARE
