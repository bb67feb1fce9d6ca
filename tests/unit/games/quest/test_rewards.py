"""The reward odds, proven statistically on the pure roll (rulebook: "Card rewards").

Chi-square goodness of fit over 100,000 rolls per case with a fixed seed. The
critical values are the 1 - 1e-6 quantiles of the chi-square distribution, so
with a fresh random seed a correct implementation would fail about once in a
million runs per assertion; with the fixed seed the test is deterministic.
"""

from collections import Counter
from fractions import Fraction

import pytest

from games.quest.rewards import (
    PERFECT_WEIGHTS,
    choose_definitions,
    redistributed,
    roll_rarities,
)
from shared.content import Rarity
from shared.randomness import SeededRandomSource

ROLLS = 100_000
ALL = set(Rarity)
# chi-square quantiles at 1 - 1e-6 by degrees of freedom
CRITICAL = {1: 23.93, 2: 27.63, 3: 30.66}


def chi_square(observed: Counter, expected: dict) -> float:
    total = sum(observed.values())
    return sum(
        (observed.get(key, 0) - float(p) * total) ** 2 / (float(p) * total)
        for key, p in expected.items()
    )


def assert_fits(observed: Counter, expected: dict) -> None:
    assert set(observed) <= set(expected), "an outcome outside the table happened"
    statistic = chi_square(observed, expected)
    assert statistic < CRITICAL[len(expected) - 1], (statistic, observed)


@pytest.mark.parametrize("correct", [0, 1, 2])
def test_two_or_fewer_correct_earn_nothing(correct):
    rng = SeededRandomSource(1)
    assert all(roll_rarities(correct, ALL, rng) == [] for _ in range(1000))


def test_three_correct_earn_exactly_one_common():
    rng = SeededRandomSource(1)
    assert all(roll_rarities(3, ALL, rng) == [Rarity.COMMON] for _ in range(1000))


def test_three_correct_without_an_eligible_common_earn_nothing():
    assert roll_rarities(3, {Rarity.RARE, Rarity.EPIC}, SeededRandomSource(1)) == []


def test_four_correct_are_75_common_25_rare():
    rng = SeededRandomSource(4)
    observed = Counter(roll_rarities(4, ALL, rng)[0] for _ in range(ROLLS))
    assert_fits(observed, {Rarity.COMMON: Fraction(3, 4), Rarity.RARE: Fraction(1, 4)})


def test_a_perfect_score_gives_two_cards_one_time_in_five():
    rng = SeededRandomSource(5)
    observed = Counter(len(roll_rarities(5, ALL, rng)) for _ in range(ROLLS))
    assert_fits(observed, {1: Fraction(4, 5), 2: Fraction(1, 5)})


def test_each_perfect_score_card_follows_45_40_14_1():
    rng = SeededRandomSource(6)
    observed = Counter(r for _ in range(ROLLS) for r in roll_rarities(5, ALL, rng))
    assert_fits(observed, dict(PERFECT_WEIGHTS))


def test_a_rarity_without_definitions_shares_its_weight_proportionally():
    available = {Rarity.COMMON, Rarity.RARE, Rarity.LEGENDARY}  # no Epic
    expected = redistributed(PERFECT_WEIGHTS, available)
    assert expected == {
        Rarity.COMMON: Fraction(45, 86),
        Rarity.RARE: Fraction(40, 86),
        Rarity.LEGENDARY: Fraction(1, 86),
    }
    rng = SeededRandomSource(7)
    observed = Counter(r for _ in range(ROLLS) for r in roll_rarities(5, available, rng))
    assert_fits(observed, expected)


def test_four_correct_without_rares_always_give_a_common():
    rng = SeededRandomSource(8)
    assert all(roll_rarities(4, {Rarity.COMMON}, rng) == [Rarity.COMMON] for _ in range(1000))


def test_the_same_seed_gives_the_same_rolls():
    first = [roll_rarities(5, ALL, SeededRandomSource(9)) for _ in range(3)]
    again = [roll_rarities(5, ALL, SeededRandomSource(9)) for _ in range(3)]
    assert first == again


def test_definitions_are_chosen_uniformly_within_a_rarity():
    rng = SeededRandomSource(10)
    pool = {Rarity.COMMON: ["a", "b", "c", "d"]}
    observed = Counter(choose_definitions([Rarity.COMMON], pool, rng)[0] for _ in range(ROLLS))
    assert_fits(observed, {k: Fraction(1, 4) for k in pool[Rarity.COMMON]})


def test_a_score_outside_zero_to_five_is_a_programming_error():
    with pytest.raises(ValueError):
        roll_rarities(6, ALL, SeededRandomSource(1))
