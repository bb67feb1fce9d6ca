"""The damage in plain integer ratios equals the rulebook's formula in Fractions.

``damage.exchange`` multiplies numerators and denominators itself (Fraction arithmetic
was most of an attack's time); here the formula is written again in ``Fraction``, as
the rulebook reads, and both must agree for every pair of categories, every starting
terrain and a terrain read back from its stored dict, every posture, an ordinary round
and the last one, and every knowledge effect (right and wrong, on each difficulty, as
terrains leave it and as the Cabinet scales and caps it, applied or not).
"""

from fractions import Fraction
from itertools import product

from games.terrakard import config
from games.terrakard.content import Category, Difficulty, category_multiplier
from games.terrakard.damage import Knowledge, exchange
from games.terrakard.plans import POSTURE_FACTORS, Posture
from games.terrakard.terrains import (
    STARTING_TERRAINS,
    Terrain,
    percent,
    terrain_from_dict,
    terrain_to_dict,
)
from tests.unit.games.terrakard.support import card

ONE = Fraction(1)


def by_the_book(attacker, defender, terrain: Terrain, posture, round_number, known):
    def factor(difficulty: Difficulty) -> Fraction:
        return ONE + known.effect if known and known.difficulty is difficulty else ONE

    posture_atk, posture_def = POSTURE_FACTORS[posture]
    round_factor = terrain.damage_factor(round_number)

    def hit(atk: Fraction, opposing_def: Fraction) -> int:
        exact = (atk - config.DEF_SHARE * opposing_def) * round_factor
        return max(config.MIN_DAMAGE, int((exact + Fraction(1, 2)) // 1))  # half up

    a_cat, d_cat = attacker.category, defender.category
    attacker_atk = (
        attacker.atk
        * category_multiplier(a_cat, d_cat)
        * terrain.atk_factor(a_cat)
        * factor(Difficulty.EASY)
    )
    attacker_def = attacker.def_ * terrain.def_factor(a_cat) * factor(Difficulty.MEDIUM)
    defender_atk = (
        defender.atk * category_multiplier(d_cat, a_cat) * terrain.atk_factor(d_cat) * posture_atk
    )
    defender_def = (
        defender.def_
        * terrain.def_factor(d_cat)
        * posture_def
        * config.RAMPART
        * factor(Difficulty.HARD)
    )
    return hit(attacker_atk, defender_def), hit(defender_atk, attacker_def)


def test_the_integer_damage_is_the_fraction_formula():
    terrains = [*STARTING_TERRAINS, terrain_from_dict(terrain_to_dict(STARTING_TERRAINS[3]))]
    # Every distinct effect: as most terrains leave it, and as the Cabinet scales and caps it.
    cabinet = next(t for t in STARTING_TERRAINS if t.knowledge_cap is not None)
    knowledge = [None] + [
        Knowledge(difficulty, terrain.knowledge(table[difficulty]))
        for terrain in (STARTING_TERRAINS[0], cabinet)
        for table in (config.RIGHT_ANSWER, config.WRONG_ANSWER)
        for difficulty in Difficulty
    ]
    checked = 0
    for a_cat, d_cat in product(Category, Category):
        attacker = card("a", a_cat, atk=47, def_=33)
        defender = card("d", d_cat, atk=38, def_=51)
        for terrain, posture, round_number, known, applies in product(
            terrains, Posture, (1, 5), knowledge, (True, False)
        ):
            hits = exchange(
                attacker,
                defender,
                terrain=terrain,
                posture=posture,
                round_number=round_number,
                knowledge=known,
                knowledge_applies=applies,
            )
            expected = by_the_book(
                attacker, defender, terrain, posture, round_number, known if applies else None
            )
            assert (hits.to_defense, hits.to_attacker) == expected
            checked += 1
    assert checked > 30_000


def test_a_terrains_derived_tables_are_its_fields_and_the_rulebooks_effects():
    read_back = [terrain_from_dict(terrain_to_dict(t)) for t in STARTING_TERRAINS]
    for terrain in [*STARTING_TERRAINS, *read_back]:
        derived = terrain.derived
        assert derived is terrain.derived  # made once
        for name, factors in [("atk", terrain.atk), ("def_", terrain.def_)]:
            assert getattr(derived, name) == {
                k: (v.numerator, v.denominator) for k, v in factors.items()
            }
        assert derived.round_damage == {
            k: (v.numerator, v.denominator) for k, v in terrain.round_damage.items()
        }
        for difficulty in Difficulty:
            right = terrain.knowledge(config.RIGHT_ANSWER[difficulty])
            wrong = terrain.knowledge(config.WRONG_ANSWER[difficulty])
            for known, effect in [(derived.right, right), (derived.wrong, wrong)]:
                expected = Knowledge(difficulty, effect) if effect else None
                assert known[difficulty] == expected
                if expected is not None:
                    assert (known[difficulty].numerator, known[difficulty].denominator) == (
                        effect.numerator,
                        effect.denominator,
                    )
                    assert known[difficulty].text == str(effect)
            assert derived.stakes[difficulty] == (percent(right), percent(wrong))
