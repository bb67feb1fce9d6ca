"""The card vocabulary: the category cycle exactly as written, costs, difficulties."""

from fractions import Fraction

import pytest

from games.terrakard.content import (
    DECK_COST,
    DIFFICULTY_OF,
    Category,
    Difficulty,
    Rarity,
    category_multiplier,
)

S, N, G, H, A, X = (
    Category.SCIENCES,
    Category.NATURE_AND_LIFE,
    Category.GEOGRAPHY,
    Category.HISTORY,
    Category.ARTS_AND_CULTURE,
    Category.SOCIETY_AND_SPORT,
)
UP, DOWN, SAME = Fraction(5, 4), Fraction(4, 5), Fraction(1)

# The rulebook's cycle as a full table: row attacks column.
TABLE = {
    S: {S: SAME, N: UP, G: SAME, H: SAME, A: SAME, X: DOWN},
    N: {S: DOWN, N: SAME, G: UP, H: SAME, A: SAME, X: SAME},
    G: {S: SAME, N: DOWN, G: SAME, H: UP, A: SAME, X: SAME},
    H: {S: SAME, N: SAME, G: DOWN, H: SAME, A: UP, X: SAME},
    A: {S: SAME, N: SAME, G: SAME, H: DOWN, A: SAME, X: UP},
    X: {S: UP, N: SAME, G: SAME, H: SAME, A: DOWN, X: SAME},
}


@pytest.mark.parametrize("attacking", list(Category))
@pytest.mark.parametrize("opposing", list(Category))
def test_the_category_cycle_is_the_rulebooks_table(attacking, opposing):
    assert category_multiplier(attacking, opposing) == TABLE[attacking][opposing]


def test_the_multipliers_are_exactly_1_25_and_0_8():
    assert category_multiplier(S, N) == Fraction("1.25")
    assert category_multiplier(N, S) == Fraction("0.8")


def test_the_category_names_are_the_rulebooks():
    assert [str(c) for c in Category] == [
        "Sciences",
        "Nature and life",
        "Geography",
        "History",
        "Arts and culture",
        "Society and sport",
    ]


def test_deck_cost_by_rarity_is_one_to_five():
    assert [DECK_COST[r] for r in Rarity] == [1, 2, 3, 4, 5]
    assert [str(r) for r in Rarity] == ["Common", "Uncommon", "Rare", "Epic", "Legendary"]


def test_question_difficulty_follows_rarity():
    assert [DIFFICULTY_OF[r] for r in Rarity] == [
        Difficulty.EASY,
        Difficulty.EASY,
        Difficulty.MEDIUM,
        Difficulty.HARD,
        Difficulty.HARD,
    ]
