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

from dataclasses import dataclass
from fractions import Fraction

from games.terrakard import config
from games.terrakard.content import Card, Difficulty, category_multiplier
from games.terrakard.plans import POSTURE_FACTORS, Posture
from games.terrakard.terrains import Terrain

ONE = Fraction(1)


@dataclass(frozen=True)
class Knowledge:
    """The knowledge question's effect in force: its difficulty and its change (+0.15 is
    +15%), the terrain's factor and cap already applied."""

    difficulty: Difficulty
    effect: Fraction

    def factor(self, difficulty: Difficulty) -> Fraction:
        return ONE + self.effect if self.difficulty is difficulty else ONE


@dataclass(frozen=True)
class Exchange:
    """One round's damage, both ways."""

    to_defense: int
    to_attacker: int


def _product(value: int, *factors: Fraction) -> tuple[int, int]:
    """``value`` times ``factors`` as (numerator, denominator): exact, in plain integers
    (Fraction arithmetic reduces at every step and is most of an attack's time)."""
    numerator, denominator = value, 1
    for factor in factors:
        numerator *= factor.numerator
        denominator *= factor.denominator
    return numerator, denominator


def _hit(atk: tuple[int, int], opposing_def: tuple[int, int], round_factor: Fraction) -> int:
    """max(1, round half up((atk - share x def) x round factor)), exactly."""
    atk_n, atk_d = atk
    def_n, def_d = opposing_def
    share, rf = config.DEF_SHARE, round_factor
    # (atk_n / atk_d - share x def_n / def_d) x rf, over one common denominator
    numerator = (atk_n * def_d * share.denominator - share.numerator * def_n * atk_d) * rf.numerator
    denominator = atk_d * def_d * share.denominator * rf.denominator
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
    known = knowledge if knowledge is not None and knowledge_applies else None
    easy = known.factor(Difficulty.EASY) if known else ONE
    medium = known.factor(Difficulty.MEDIUM) if known else ONE
    hard = known.factor(Difficulty.HARD) if known else ONE
    posture_atk, posture_def = POSTURE_FACTORS[posture]
    round_factor = terrain.damage_factor(round_number)

    attacker_atk = _product(
        attacker.atk,
        category_multiplier(attacker.category, defender.category),
        terrain.atk_factor(attacker.category),
        easy,
    )
    attacker_def = _product(attacker.def_, terrain.def_factor(attacker.category), medium)
    defender_atk = _product(
        defender.atk,
        category_multiplier(defender.category, attacker.category),
        terrain.atk_factor(defender.category),
        posture_atk,
    )
    defender_def = _product(
        defender.def_,
        terrain.def_factor(defender.category),
        posture_def,
        config.RAMPART,
        hard,
    )
    return Exchange(
        to_defense=_hit(attacker_atk, defender_def, round_factor),
        to_attacker=_hit(defender_atk, attacker_def, round_factor),
    )
