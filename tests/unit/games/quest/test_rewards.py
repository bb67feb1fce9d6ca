"""The reward odds, proven statistically on the pure roll (rulebook: "Card rewards").

The roll draws on provably fair draws (games/kit/fair.py): one roll per nonce under a
fixed server seed and client seed, as a player's rolls are. Chi-square goodness of fit
over 100,000 rolls per case. The critical values are the 1 - 1e-6 quantiles of the
chi-square distribution, so with a fresh random seed a correct implementation would
fail about once in a million runs per assertion; with the fixed seed the test is
deterministic.
"""

import hashlib
import itertools
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from games.kit.fair import Roller
from games.quest.content import Rarity
from games.quest.rewards import (
    PERFECT_WEIGHTS,
    choose_definitions,
    redistributed,
    roll_rarities,
)

ROLLS = 100_000
ALL = set(Rarity)
# chi-square quantiles at 1 - 1e-6 by degrees of freedom
CRITICAL = {1: 23.93, 2: 27.63, 3: 30.66}


class Rolls:
    """A fresh roll (the next nonce) under one server seed for each call."""

    def __init__(self, seed: int) -> None:
        self._server_seed = hashlib.sha256(f"test-{seed}".encode()).digest()
        self._nonces: Iterator[int] = itertools.count()
        self.last: Roller | None = None

    def __call__(self) -> Roller:
        self.last = Roller(self._server_seed, "tests", next(self._nonces), "quest.reward")
        return self.last


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
    rolls = Rolls(1)
    assert all(roll_rarities(correct, ALL, rolls()) == [] for _ in range(1000))


def test_three_correct_earn_exactly_one_common():
    rolls = Rolls(1)
    assert all(roll_rarities(3, ALL, rolls()) == [Rarity.COMMON] for _ in range(1000))


def test_three_correct_without_an_eligible_common_earn_nothing():
    assert roll_rarities(3, {Rarity.RARE, Rarity.EPIC}, Rolls(1)()) == []


def test_four_correct_are_75_common_25_rare():
    rolls = Rolls(4)
    observed = Counter(roll_rarities(4, ALL, rolls())[0] for _ in range(ROLLS))
    assert_fits(observed, {Rarity.COMMON: Fraction(3, 4), Rarity.RARE: Fraction(1, 4)})


def test_a_perfect_score_gives_two_cards_one_time_in_five():
    rolls = Rolls(5)
    observed = Counter(len(roll_rarities(5, ALL, rolls())) for _ in range(ROLLS))
    assert_fits(observed, {1: Fraction(4, 5), 2: Fraction(1, 5)})


def test_each_perfect_score_card_follows_45_40_14_1():
    rolls = Rolls(6)
    observed = Counter(r for _ in range(ROLLS) for r in roll_rarities(5, ALL, rolls()))
    assert_fits(observed, redistributed(PERFECT_WEIGHTS, ALL))


def test_a_rarity_without_definitions_shares_its_weight_proportionally():
    available = {Rarity.COMMON, Rarity.RARE, Rarity.LEGENDARY}  # no Epic
    expected = redistributed(PERFECT_WEIGHTS, available)
    assert expected == {
        Rarity.COMMON: Fraction(45, 86),
        Rarity.RARE: Fraction(40, 86),
        Rarity.LEGENDARY: Fraction(1, 86),
    }
    rolls = Rolls(7)
    observed = Counter(r for _ in range(ROLLS) for r in roll_rarities(5, available, rolls()))
    assert_fits(observed, expected)


def test_four_correct_without_rares_always_give_a_common():
    rolls = Rolls(8)
    assert all(roll_rarities(4, {Rarity.COMMON}, rolls()) == [Rarity.COMMON] for _ in range(1000))


def test_the_same_seed_gives_the_same_rolls():
    first, again = Rolls(9), Rolls(9)
    assert [roll_rarities(5, ALL, first()) for _ in range(50)] == [
        roll_rarities(5, ALL, again()) for _ in range(50)
    ]
    other = Rolls(10)
    assert [roll_rarities(5, ALL, first()) for _ in range(50)] != [
        roll_rarities(5, ALL, other()) for _ in range(50)
    ]


def test_every_draw_of_a_roll_is_recorded_with_its_options_weights_and_outcome():
    rolls = Rolls(11)
    while len(roll_rarities(5, ALL, rolls())) != 2:
        pass
    roller = rolls.last
    assert [d.key for d in roller.draws] == ["count", "rarity.0", "rarity.1"]
    count, first, _ = roller.draws
    assert (count.options, count.weights, count.outcome) == (("1", "2"), (80, 20), "2")
    assert first.options == ("Common", "Rare", "Epic", "Legendary")
    assert first.weights == (45, 40, 14, 1)


def test_a_rarity_without_definitions_is_not_offered_in_the_draw():
    rolls = Rolls(12)
    roll_rarities(4, {Rarity.COMMON}, rolls())
    [draw] = rolls.last.draws
    assert (draw.options, draw.weights, draw.outcome) == (("Common",), (75,), "Common")


def test_definitions_are_chosen_uniformly_within_a_rarity():
    rolls = Rolls(10)
    pool = {Rarity.COMMON: ["a", "b", "c", "d"]}
    observed = Counter(choose_definitions([Rarity.COMMON], pool, rolls())[0] for _ in range(ROLLS))
    assert [d.key for d in rolls.last.draws] == ["card.0"]
    assert_fits(observed, {k: Fraction(1, 4) for k in pool[Rarity.COMMON]})


def test_a_score_outside_zero_to_five_is_a_programming_error():
    with pytest.raises(ValueError):
        roll_rarities(6, ALL, Rolls(1)())
