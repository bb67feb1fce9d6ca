"""The tables issue 22 added to the fair rolls, each over 100,000 derived rolls against
its published odds: a TerraKard attack's terrain (uniform over the season's terrains,
rules/terrakard.txt "Terrains") and the Quest starter grant's three Creatures drawn
without replacement when more than three are published (every set of three equally
likely). The Quest reward and pack tables have theirs (tests/unit/games/quest/
test_rewards.py, tests/unit/cards/test_pack_odds.py); the mapping itself is
tests/unit/games/test_fair.py's."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

from games.kit.fair import Roller, match_commitment
from games.quest.starter import choose_starter_cards
from games.terrakard.terrains import STARTING_TERRAINS
from services.battle.games.terrakard import TERRAIN_PURPOSE

ROLLS = 100_000
SEED = bytes(range(32))
CLIENT = "table-test"
TAIL = 1e-6  # a fair table fails one run in a million


def _upper_tail(degrees: int, x: float) -> float:
    """P(chi-square with ``degrees`` > x): one minus the regularized lower gamma series."""
    a, y = degrees / 2, x / 2
    term = total = 1 / a
    n = 1
    while term > 1e-18 * total:
        term *= y / (a + n)
        total += term
        n += 1
    return 1 - total * math.exp(-y + a * math.log(y) - math.lgamma(a))


def critical(degrees: int) -> float:
    """The chi-square quantile at 1 - TAIL, by bisection."""
    low, high = 0.0, 200.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if _upper_tail(degrees, middle) > TAIL else (low, middle)
    return low


def assert_fits(observed: Counter, expected: dict) -> None:
    total = sum(observed.values())
    assert set(observed) <= set(expected), "an outcome outside the table happened"
    statistic = sum(
        (observed.get(k, 0) - float(p) * total) ** 2 / (float(p) * total)
        for k, p in expected.items()
    )
    assert statistic < critical(len(expected) - 1), (statistic, observed)


def test_the_critical_values_match_the_tabulated_ones():
    # chi-square at 1 - 1e-6, as tabulated: 23.93 (1 degree), 27.63 (2), 33.38 (4)
    assert [round(critical(k), 2) for k in (1, 2, 4)] == [23.93, 27.63, 33.38]


def test_terrains_are_uniform_over_the_season_s_list_over_100000_attacks():
    names = [t.name for t in STARTING_TERRAINS]
    observed = Counter(
        Roller(SEED, CLIENT, nonce, TERRAIN_PURPOSE).choice("terrain", names)
        for nonce in range(ROLLS)
    )
    assert_fits(observed, {name: Fraction(1, len(names)) for name in names})


def test_every_three_of_five_starters_is_equally_likely_over_100000_grants():
    creatures = [f"c{i}" for i in range(5)]
    observed = Counter(
        frozenset(
            choose_starter_cards(
                creatures, ["p1", "p2"], Roller(SEED, CLIENT, nonce, "quest.starter")
            )[:3]
        )
        for nonce in range(ROLLS)
    )
    sets = [frozenset(s) for s in itertools.combinations(creatures, 3)]
    assert_fits(observed, {s: Fraction(1, len(sets)) for s in sets})


def test_a_starter_draw_never_repeats_a_creature_and_records_three_draws():
    roller = Roller(SEED, CLIENT, 0, "quest.starter")
    chosen = choose_starter_cards(["a", "b", "c", "d"], ["p1", "p2"], roller)
    assert len(set(chosen[:3])) == 3 and chosen[3:] == ["p1", "p2"]
    assert [len(d.options) for d in roller.draws] == [4, 3, 2]
    assert [d.outcome for d in roller.draws] == chosen[:3]


def test_the_worked_examples_of_docs_fairness_md():
    """The terrain, starter and match-commitment examples, as the document gives them."""
    seed, client = bytes(range(32)), "my-client-seed"
    names = [t.name for t in STARTING_TERRAINS]
    assert Roller(seed, client, 0, TERRAIN_PURPOSE).choice("terrain", names) == "Grand Stadium"
    roller = Roller(seed, client, 1, "quest.starter")
    assert choose_starter_cards(["d1", "d2", "d3", "d4"], ["p1", "p2"], roller)[:3] == [
        "d1",
        "d2",
        "d3",
    ]
    salt = bytes(range(32)).hex()
    assert match_commitment(4242424242, salt) == (
        "1b9efee8d2e13cb4e1a2a5992626c3962b2c1491edf29dc03e412129e0045e6b"
    )
