"""A small seeded balance check of the Core Set (the full run: scripts/chronovore_balance.py,
figures in docs/chronovore.md). Every class pairing plays 30 whole matches random vs
random and 30 CPU vs CPU; with that few matches a share is known to about ±0.09, so the
bound here is wide (0.25-0.75): it catches a class that breaks the game, not a drift."""

import itertools

import pytest

from games.chronovore.balance import cards_from_entries, pairing
from games.chronovore.content import HERO_CLASSES

from .support import core_set_entries

MATCHES = 30
PAIRS = list(itertools.combinations([c.value for c in HERO_CLASSES], 2))


@pytest.fixture(scope="module")
def cards():
    return cards_from_entries(core_set_entries())


@pytest.mark.parametrize("policies", [("random", "random"), ("cpu", "cpu")])
def test_no_class_runs_away_with_another(cards, policies):
    shares = {pair: pairing(cards, pair, policies, MATCHES, seed=18).win_share for pair in PAIRS}
    lopsided = {pair: share for pair, share in shares.items() if not 0.25 <= share <= 0.75}
    assert not lopsided, lopsided


def test_a_pairing_is_the_same_for_the_same_seed(cards):
    first = pairing(cards, ("medic", "priest"), ("random", "cpu"), 6, seed=3)
    assert first == pairing(cards, ("medic", "priest"), ("random", "cpu"), 6, seed=3)
    assert first.matches == 6
