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

from typing import Any, Final

from games.kit.frozen import Frozen
from games.terrakard import config
from games.terrakard.content import Card, Category, Difficulty, category_multiplier
from games.terrakard.plans import POSTURE_FACTORS, Posture
from games.terrakard.terrains import Knowledge, Ratio, Terrain, ratio

__all__ = ["Exchange", "Knowledge", "exchange"]  # Knowledge: games/terrakard/terrains.py


class Exchange(Frozen):
    """One round's damage, both ways."""

    to_defense: int
    to_attacker: int

    def __init__(self, to_defense: int, to_attacker: int) -> None:
        self.to_defense = to_defense
        self.to_attacker = to_attacker

    def fields(self) -> dict[str, Any]:
        return {"to_defense": self.to_defense, "to_attacker": self.to_attacker}


_ONE: Final[Ratio] = (1, 1)


# Every factor that does not depend on the terrain or the answer, as plain integers
# (Fraction arithmetic reduces at every step and was most of an attack's time).
_CATEGORY: Final[dict[Category, dict[Category, Ratio]]] = {
    a: {o: ratio(category_multiplier(a, o)) for o in Category} for a in Category
}
_POSTURE: Final[dict[Posture, tuple[int, int, int, int]]] = {
    posture: (*ratio(atk), *ratio(def_)) for posture, (atk, def_) in POSTURE_FACTORS.items()
}
_RAMPART_N: Final = config.RAMPART.numerator
_RAMPART_D: Final = config.RAMPART.denominator
_SHARE_N: Final = config.DEF_SHARE.numerator
_SHARE_D: Final = config.DEF_SHARE.denominator
_MIN_DAMAGE: Final = config.MIN_DAMAGE
_EASY: Final = Difficulty.EASY
_MEDIUM: Final = Difficulty.MEDIUM
_HARD: Final = Difficulty.HARD


def _hit(atk_n: int, atk_d: int, def_n: int, def_d: int, rf_n: int, rf_d: int) -> int:
    """max(1, round half up((atk - share x def) x round factor)), exactly: ``atk``,
    the opposing ``def`` and the round's factor each as numerator and denominator."""
    # (atk_n / atk_d - share x def_n / def_d) x rf, over one common denominator
    numerator = (atk_n * def_d * _SHARE_D - _SHARE_N * def_n * atk_d) * rf_n
    denominator = atk_d * def_d * _SHARE_D * rf_d
    whole = (2 * numerator + denominator) // (2 * denominator)  # floor(x + 1/2)
    return max(_MIN_DAMAGE, whole)


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
    """The damage the attacker's card and the defense's card deal each other.

    Every value is a product of factors, kept as a numerator and a denominator in plain
    integers (tests/unit/games/terrakard/test_damage_in_integers.py holds it to the
    formula in Fractions)."""
    easy_n = easy_d = medium_n = medium_d = hard_n = hard_d = 1
    if knowledge is not None and knowledge_applies:
        denominator = knowledge.denominator
        numerator = denominator + knowledge.numerator  # 1 + effect
        difficulty = knowledge.difficulty
        if difficulty is _EASY:
            easy_n, easy_d = numerator, denominator
        elif difficulty is _MEDIUM:
            medium_n, medium_d = numerator, denominator
        elif difficulty is _HARD:
            hard_n, hard_d = numerator, denominator
    posture_atk_n, posture_atk_d, posture_def_n, posture_def_d = _POSTURE[posture]
    a_cat, d_cat = attacker.category, defender.category
    factors = terrain.derived
    atk, def_ = factors.atk, factors.def_
    # A terrain names few categories (and rounds): most lookups find none, x1.
    rf_n, rf_d = factors.round_damage.get(round_number, _ONE)
    a_atk_n, a_atk_d = atk.get(a_cat, _ONE)
    d_atk_n, d_atk_d = atk.get(d_cat, _ONE)
    a_def_n, a_def_d = def_.get(a_cat, _ONE)
    d_def_n, d_def_d = def_.get(d_cat, _ONE)
    ad_n, ad_d = _CATEGORY[a_cat][d_cat]
    da_n, da_d = _CATEGORY[d_cat][a_cat]

    attacker_atk_n = attacker.atk * ad_n * a_atk_n * easy_n
    attacker_atk_d = ad_d * a_atk_d * easy_d
    attacker_def_n = attacker.def_ * a_def_n * medium_n
    attacker_def_d = a_def_d * medium_d
    defender_atk_n = defender.atk * da_n * d_atk_n * posture_atk_n
    defender_atk_d = da_d * d_atk_d * posture_atk_d
    defender_def_n = defender.def_ * d_def_n * posture_def_n * _RAMPART_N * hard_n
    defender_def_d = d_def_d * posture_def_d * _RAMPART_D * hard_d
    return Exchange(
        _hit(attacker_atk_n, attacker_atk_d, defender_def_n, defender_def_d, rf_n, rf_d),
        _hit(defender_atk_n, defender_atk_d, attacker_def_n, attacker_def_d, rf_n, rf_d),
    )
