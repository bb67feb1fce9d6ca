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
from math import floor

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


def _whole(value: Fraction) -> int:
    return floor(value + Fraction(1, 2))


def _hit(atk: Fraction, opposing_def: Fraction, round_factor: Fraction) -> int:
    raw = (atk - config.DEF_SHARE * opposing_def) * round_factor
    return max(config.MIN_DAMAGE, _whole(raw))


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

    attacker_atk = (
        attacker.atk
        * category_multiplier(attacker.category, defender.category)
        * terrain.atk_factor(attacker.category)
        * easy
    )
    attacker_def = attacker.def_ * terrain.def_factor(attacker.category) * medium
    defender_atk = (
        defender.atk
        * category_multiplier(defender.category, attacker.category)
        * terrain.atk_factor(defender.category)
        * posture_atk
    )
    defender_def = (
        defender.def_ * terrain.def_factor(defender.category) * posture_def * config.RAMPART * hard
    )
    return Exchange(
        to_defense=_hit(attacker_atk, defender_def, round_factor),
        to_attacker=_hit(defender_atk, attacker_def, round_factor),
    )
