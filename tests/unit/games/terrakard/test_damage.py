"""Damage both ways: category, terrains, postures, rampart, knowledge, rounding, floor."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.terrakard.content import Category, Difficulty, Rarity
from games.terrakard.damage import Knowledge, exchange
from games.terrakard.plans import Posture
from games.terrakard.terrains import TERRAINS_BY_NAME
from tests.unit.games.terrakard.support import NEUTRAL, card

GEO = card("attacker", Category.GEOGRAPHY)  # ATK 40, DEF 20
DEF_GEO = card("defender", Category.GEOGRAPHY)


def hit(attacker=GEO, defender=DEF_GEO, terrain=NEUTRAL, posture=Posture.BALANCED, **kw):
    kw.setdefault("round_number", 1)
    kw.setdefault("knowledge", None)
    return exchange(attacker, defender, terrain=terrain, posture=posture, **kw)


def test_atk_minus_half_the_opposing_def_with_the_rampart_on_the_defense():
    hits = hit()
    assert hits.to_defense == 29  # 40 - 20 x 1.08 / 2 = 29.2
    assert hits.to_attacker == 30  # 40 - 20 / 2 (no rampart for the attacker)


def test_the_advantage_and_the_disadvantage_both_ways():
    hits = hit(card("s", Category.SCIENCES), card("n", Category.NATURE_AND_LIFE))
    assert hits.to_defense == 39  # 40 x 1.25 - 10.8 = 39.2
    assert hits.to_attacker == 22  # 40 x 0.8 - 10


def test_damage_is_rounded_half_up_once():
    hits = hit(card("a", atk=41), card("d", def_=25))
    assert hits.to_defense == 28  # 41 - 25 x 1.08 / 2 = 27.5


def test_a_card_always_deals_at_least_one_point():
    hits = hit(card("weak", atk=1), card("wall", def_=500, atk=0))
    assert (hits.to_defense, hits.to_attacker) == (1, 1)


@pytest.mark.parametrize(
    ("posture", "to_defense", "to_attacker"),
    [
        (Posture.CAUTIOUS, 28, 26),  # DEF 20 x 1.1 x 1.08: 40 - 11.88; ATK 36 - 10
        (Posture.BALANCED, 29, 30),
        (Posture.OFFENSIVE, 30, 34),  # DEF 20 x 0.9 x 1.08: 40 - 9.72; ATK 44 - 10
    ],
)
def test_each_posture(posture, to_defense, to_attacker):
    hits = hit(posture=posture)
    assert (hits.to_defense, hits.to_attacker) == (to_defense, to_attacker)


def test_library_of_alexandria_raises_history_and_arts_atk_on_both_sides():
    library = TERRAINS_BY_NAME["Library of Alexandria"]
    for category in (Category.HISTORY, Category.ARTS_AND_CULTURE):
        hits = hit(card("a", category), card("d", category), terrain=library)
        assert (hits.to_defense, hits.to_attacker) == (37, 38)  # 48 - 10.8; 48 - 10
    assert hit(terrain=library) == hit()


def test_cern_raises_sciences_atk():
    cern = TERRAINS_BY_NAME["CERN laboratory"]
    hits = hit(card("a", Category.SCIENCES), card("d", Category.SCIENCES), terrain=cern)
    assert (hits.to_defense, hits.to_attacker) == (37, 38)
    assert hit(terrain=cern) == hit()


def test_amazon_rainforest_raises_nature_def_on_both_sides():
    amazon = TERRAINS_BY_NAME["Amazon rainforest"]
    nature = Category.NATURE_AND_LIFE
    hits = hit(card("a", nature), card("d", nature), terrain=amazon)
    assert hits.to_defense == 27  # 40 - 20 x 1.2 x 1.08 / 2 = 27.04
    assert hits.to_attacker == 28  # 40 - 20 x 1.2 / 2
    assert hit(terrain=amazon) == hit()


def test_grand_stadium_raises_society_atk_and_multiplies_round_five_damage():
    stadium = TERRAINS_BY_NAME["Grand Stadium"]
    society = Category.SOCIETY_AND_SPORT
    hits = hit(card("a", society), card("d", society), terrain=stadium)
    assert (hits.to_defense, hits.to_attacker) == (37, 38)
    for number in (1, 2, 3, 4):
        assert hit(terrain=stadium, round_number=number) == hit()
    fifth = hit(terrain=stadium, round_number=5)
    assert (fifth.to_defense, fifth.to_attacker) == (44, 45)  # 29.2 x 1.5, 30 x 1.5


def test_fog_and_cabinet_do_not_change_damage_without_knowledge():
    for name in ("Fog", "Cabinet of curiosities"):
        assert hit(terrain=TERRAINS_BY_NAME[name]) == hit()


@pytest.mark.parametrize(
    ("difficulty", "effect", "to_defense", "to_attacker"),
    [
        (Difficulty.EASY, Fraction(15, 100), 35, 30),  # ATK 46 - 10.8
        (Difficulty.EASY, Fraction(-5, 100), 27, 30),  # ATK 38 - 10.8
        (Difficulty.MEDIUM, Fraction(20, 100), 29, 28),  # own DEF 24
        (Difficulty.HARD, Fraction(-25, 100), 32, 30),  # 40 - 20 x 1.08 x 0.75 / 2 = 31.9
    ],
)
def test_each_knowledge_effect(difficulty, effect, to_defense, to_attacker):
    hits = hit(knowledge=Knowledge(difficulty, effect))
    assert (hits.to_defense, hits.to_attacker) == (to_defense, to_attacker)


def test_a_card_played_by_the_server_gets_no_knowledge_effect():
    known = Knowledge(Difficulty.HARD, Fraction(-25, 100))
    assert hit(knowledge=known, knowledge_applies=False) == hit()


@pytest.mark.parametrize(
    ("effect", "scaled"),
    [
        (Fraction(15, 100), Fraction(225, 1000)),  # easy right: +22.5%
        (Fraction(-5, 100), Fraction(-75, 1000)),  # easy wrong: -7.5%
        (Fraction(20, 100), Fraction(25, 100)),  # medium: +30% capped at +25%
        (Fraction(-25, 100), Fraction(-25, 100)),  # hard: -37.5% capped at -25%
    ],
)
def test_the_cabinet_multiplies_knowledge_effects_by_1_5_within_25_percent(effect, scaled):
    assert TERRAINS_BY_NAME["Cabinet of curiosities"].knowledge(effect) == scaled
    assert NEUTRAL.knowledge(effect) == effect


stats = st.integers(min_value=0, max_value=400)


@given(
    atk=stats,
    def_=stats,
    other_atk=stats,
    other_def=stats,
    a=st.sampled_from(list(Category)),
    d=st.sampled_from(list(Category)),
    terrain=st.sampled_from(list(TERRAINS_BY_NAME.values())),
    posture=st.sampled_from(list(Posture)),
    number=st.integers(1, 5),
)
def test_damage_is_always_at_least_one(
    atk, def_, other_atk, other_def, a, d, terrain, posture, number
):
    hits = exchange(
        card("a", a, Rarity.RARE, atk, def_),
        card("d", d, Rarity.RARE, other_atk, other_def),
        terrain=terrain,
        posture=posture,
        round_number=number,
        knowledge=Knowledge(Difficulty.HARD, Fraction(-1, 4)),
    )
    assert hits.to_defense >= 1 and hits.to_attacker >= 1
