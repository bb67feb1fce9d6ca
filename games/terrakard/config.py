"""TerraKard's numbers: the rulebook's, each citing its line, and ours where the
rulebook is silent (marked "ours"; docs/terrakard.md explains each choice).

Ours are data, not code: the level budgets are a table, read by ``budget_for``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from games.kit.frozen import plain
from games.terrakard.content import Difficulty

# -- the attack ---------------------------------------------------------------------------
ROUNDS = 5  # rulebook: "An attack is played in 5 rounds"
START_HP = 150  # rulebook: "Each side starts with 150 hit points"
ROUND_SECONDS = 20  # rulebook: "within 20 seconds"
QUESTION_SECONDS = 15  # rulebook: "15 seconds, three answers"
RECONNAISSANCE_SECONDS = 30  # ours: how long the reconnaissance lasts before round 1
DEF_SHARE = Fraction(1, 2)  # rulebook: "minus 50% of the DEF of the opposing card"
MIN_DAMAGE = 1  # rulebook: "A card always deals at least 1 point of damage"
RAMPART = Fraction(108, 100)  # rulebook: "DEF +8% for all its cards" (the defense's)
LOW_HP_SHARE = Fraction(1, 2)  # rulebook: reserve, "below 50% of their maximum"
TWO_STARS_SHARE = Fraction(1, 2)  # rulebook: two stars, "50% of its hit points or less"

# Rulebook, "Knowledge questions": the effect of a right answer (and, for an easy one,
# of a wrong answer), as a fraction: +15% is 15/100. Whose cards and which value it
# changes is in games/terrakard/damage.py.
RIGHT_ANSWER: Mapping[Difficulty, Fraction] = {
    Difficulty.EASY: Fraction(15, 100),  # your ATK +15%
    Difficulty.MEDIUM: Fraction(20, 100),  # your DEF +20%
    Difficulty.HARD: Fraction(-25, 100),  # the opposing DEF -25%
}
WRONG_ANSWER: Mapping[Difficulty, Fraction] = {
    Difficulty.EASY: Fraction(-5, 100),  # your ATK -5%
    Difficulty.MEDIUM: Fraction(0),
    Difficulty.HARD: Fraction(0),
}

# -- decks and plans ----------------------------------------------------------------------
DECK_SIZE = 8  # rulebook: "a deck of 8 cards"
PLAN_ROUNDS = 5  # rulebook: "5 cards in the order of the rounds"
MAX_COPIES_OF_A_CARD = 1  # ours: a card (a definition) once in a deck, once in a plan
MAX_SAVED_DECKS = 10  # ours
MAX_SAVED_PLANS = 10  # ours
# Ours: a plan whose cost is below this share of the level's defense budget is "far
# below the budget" (rulebook, "Rewards": its attacker's pack is less rich).
FAR_BELOW_SHARE = Fraction(60, 100)


@plain
@dataclass(frozen=True)
class Budget:
    """What one level allows: the cost of an attack deck, and of a defense plan's six
    cards (five planned and the reserve)."""

    level: int
    attack: int
    defense: int


# Ours: the level budgets (rulebook: "The total cost of the cards must stay within your
# budget, which depends on your level"). From level 1 (eight cards of 12 points: mostly
# Common, a few Uncommon) to level 15 and beyond (eight Legendary cards); a level above
# the table has the last row's budget. The defense budget is three quarters of the
# attack's (six cards against eight), rounded down.
LEVEL_BUDGETS: tuple[Budget, ...] = (
    Budget(1, 12, 9),
    Budget(2, 14, 10),
    Budget(3, 16, 12),
    Budget(4, 18, 13),
    Budget(5, 20, 15),
    Budget(6, 22, 16),
    Budget(7, 24, 18),
    Budget(8, 26, 19),
    Budget(9, 28, 21),
    Budget(10, 30, 22),
    Budget(11, 32, 24),
    Budget(12, 34, 25),
    Budget(13, 36, 27),
    Budget(14, 38, 28),
    Budget(15, 40, 30),
)


def budget_for(level: int, table: tuple[Budget, ...] = LEVEL_BUDGETS) -> Budget:
    """The budget of ``level`` (1 or more): its row, or the last row above the table."""
    if level < 1:
        raise ValueError("levels start at 1")
    fitting = [row for row in table if row.level <= level]
    return fitting[-1]


# -- level ----------------------------------------------------------------------------------
# Ours: the level from the progression points accounts keeps (rulebook: "Your level rises
# with experience ... and cannot be bought"). The points needed for levels 2, 3, ...: a
# player at 0 points is level 1; each threshold reached adds a level.
LEVEL_POINTS: tuple[int, ...] = (
    50, 120, 220, 350, 520, 730, 980, 1280, 1630, 2030, 2480, 2980, 3530, 4130,
)  # fmt: skip

# -- the starting collection ----------------------------------------------------------------
# Ours: a new TerraKard player's first cards, enough for a legal attack deck (8 cards
# within level 1's 12) and a legal plan (6 cards within level 1's 9).
STARTING_COMMONS = 8
STARTING_UNCOMMONS = 2
