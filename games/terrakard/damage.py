"""Damage (rules/terrakard.txt, "Damage"): no luck, both ways at once.

The damage of a card is its ATK multiplied by the bonuses that apply (category,
terrain, knowledge, posture), minus 50% of the opposing card's DEF with its own bonuses
(terrain, posture, the defense's rampart +8%, knowledge), at least 1. Every factor is
an exact fraction; the damage is rounded once, half up, to whole hit points (ours),
after the round's own factor (Grand Stadium, round 5: x1.5) and before the floor of 1.

Knowledge (rulebook, "Knowledge questions"): easy changes the attacker's ATK, medium
raises the attacker's DEF, hard lowers the defense's DEF; none of it applies to a card
the server played for the attacker ("without the knowledge bonus").
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from games.kit.frozen import Frozen
from games.terrakard import config
from games.terrakard.content import Card, Category, Difficulty, category_multiplier
from games.terrakard.plans import POSTURE_FACTORS, Posture
from games.terrakard.terrains import Terrain

ONE = Fraction(1)


class Knowledge(Frozen):
    """The knowledge question's effect in force: its difficulty and its change (+0.15 is
    +15%), the terrain's factor and cap already applied."""

    difficulty: Difficulty
    effect: Fraction

    def __init__(self, difficulty: Difficulty, effect: Fraction) -> None:
        self.difficulty = difficulty
        self.effect = effect

    def fields(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "effect": self.effect}

    def factor(self, difficulty: Difficulty) -> Fraction:
        return ONE + self.effect if self.difficulty is difficulty else ONE


class Exchange(Frozen):
    """One round's damage, both ways."""

    to_defense: int
    to_attacker: int

    def __init__(self, to_defense: int, to_attacker: int) -> None:
        self.to_defense = to_defense
        self.to_attacker = to_attacker

    def fields(self) -> dict[str, Any]:
        return {"to_defense": self.to_defense, "to_attacker": self.to_attacker}


Ratio = tuple[int, int]  # a factor as (numerator, denominator), in plain integers
_ONE: Ratio = (1, 1)


def _ratio(factor: Fraction) -> Ratio:
    return factor.numerator, factor.denominator


def _lookup(factors: Mapping[Any, Fraction], key: Any) -> Ratio:
    """A terrain's factor for a category or a round (most have none: x1)."""
    factor = factors.get(key)
    return _ONE if factor is None else (factor.numerator, factor.denominator)


# Every factor that does not depend on the terrain or the answer, as plain integers
# (Fraction arithmetic reduces at every step and was most of an attack's time).
_CATEGORY: Mapping[tuple[Category, Category], Ratio] = {
    (a, o): _ratio(category_multiplier(a, o)) for a in Category for o in Category
}
_POSTURE: Mapping[Posture, tuple[Ratio, Ratio]] = {
    posture: (_ratio(atk), _ratio(def_)) for posture, (atk, def_) in POSTURE_FACTORS.items()
}
_RAMPART = _ratio(config.RAMPART)
_SHARE = _ratio(config.DEF_SHARE)


def _product(value: int, *factors: Ratio) -> Ratio:
    """``value`` times ``factors`` as (numerator, denominator): exact, in plain integers."""
    numerator, denominator = value, 1
    for factor_numerator, factor_denominator in factors:
        numerator *= factor_numerator
        denominator *= factor_denominator
    return numerator, denominator


def _hit(atk: Ratio, opposing_def: Ratio, round_factor: Ratio) -> int:
    """max(1, round half up((atk - share x def) x round factor)), exactly."""
    atk_n, atk_d = atk
    def_n, def_d = opposing_def
    share_n, share_d = _SHARE
    rf_n, rf_d = round_factor
    # (atk_n / atk_d - share x def_n / def_d) x rf, over one common denominator
    numerator = (atk_n * def_d * share_d - share_n * def_n * atk_d) * rf_n
    denominator = atk_d * def_d * share_d * rf_d
    whole = (2 * numerator + denominator) // (2 * denominator)  # floor(x + 1/2)
    return max(config.MIN_DAMAGE, whole)


def exchange(
    attacker: Card,
    defender: Card,
    *,
    terrain: Terrain,
    posture: Posture,
    round_number: int,
    knowledge: Knowledge | None,
    knowledge_applies: bool = True,
) -> Exchange:
    """The damage the attacker's card and the defense's card deal each other."""
    easy = medium = hard = _ONE
    if knowledge is not None and knowledge_applies:
        effect = knowledge.effect
        changed = (effect.denominator + effect.numerator, effect.denominator)  # 1 + effect
        if knowledge.difficulty is Difficulty.EASY:
            easy = changed
        elif knowledge.difficulty is Difficulty.MEDIUM:
            medium = changed
        elif knowledge.difficulty is Difficulty.HARD:
            hard = changed
    posture_atk, posture_def = _POSTURE[posture]
    a_cat, d_cat = attacker.category, defender.category
    atk, def_, rounds = terrain.atk, terrain.def_, terrain.round_damage
    # A terrain names few categories (and rounds): most lookups find none, x1.
    round_factor = _lookup(rounds, round_number) if rounds else _ONE
    a_atk = _lookup(atk, a_cat) if a_cat in atk else _ONE
    d_atk = _lookup(atk, d_cat) if d_cat in atk else _ONE
    a_def = _lookup(def_, a_cat) if a_cat in def_ else _ONE
    d_def = _lookup(def_, d_cat) if d_cat in def_ else _ONE

    attacker_atk = _product(attacker.atk, _CATEGORY[a_cat, d_cat], a_atk, easy)
    attacker_def = _product(attacker.def_, a_def, medium)
    defender_atk = _product(defender.atk, _CATEGORY[d_cat, a_cat], d_atk, posture_atk)
    defender_def = _product(defender.def_, d_def, posture_def, _RAMPART, hard)
    return Exchange(
        to_defense=_hit(attacker_atk, defender_def, round_factor),
        to_attacker=_hit(defender_atk, attacker_def, round_factor),
    )
