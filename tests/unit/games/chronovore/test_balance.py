"""A small seeded balance check of the Core Set (the full run: scripts/chronovore_balance.py,
figures in docs/chronovore.md). Every class pairing plays 30 whole matches random vs
random and 30 between the CPU and the one-ply greedy policy (each class taking each
policy in half of them); with that few matches a share is known to about ±0.09, so the
bound here is wide (0.25-0.75): it catches a class that breaks the game, not a drift.

And a new player against the CPU (issue 30; the full run: scripts/chronovore_cpu_report.py,
figures in docs/balance/chronovore.md): a deck drawn from a new account's starting packs,
played by the greedy policy, wins 55-75% of its matches against the CPU's deck."""

import itertools
import json
from pathlib import Path

import pytest

from games.chronovore.balance import (
    PACK_CARDS,
    PACK_FLOOR,
    PACK_RARITY_WEIGHTS,
    POLICIES,
    Tally,
    cards_from_entries,
    new_player_band,
    pairing,
    starter_deck,
    starting_collection,
)
from games.chronovore.content import HERO_CLASSES
from games.chronovore.decks import card_problems
from games.kit.chance import RandomState

from .support import core_set_entries

MATCHES = 30
PAIRS = list(itertools.combinations([c.value for c in HERO_CLASSES], 2))
ROOT = Path(__file__).parents[4]
PACKS = ROOT / "services/cards/economy_data/chronovore_packs.json"
CPU_DECKS = ROOT / "services/battle/games/chronovore_cpu_decks.json"


@pytest.fixture(scope="module")
def cards():
    return cards_from_entries(core_set_entries())


def both_ways(cards, pair, first, second, matches, seed):
    """The first class's tally with each policy in half of the matches."""
    if first == second:
        return pairing(cards, pair, (first, second), matches, seed)
    one = pairing(cards, pair, (first, second), matches // 2, seed)
    two = pairing(cards, pair, (second, first), matches - matches // 2, seed + 1)
    return Tally(one.wins + two.wins, one.losses + two.losses, one.draws + two.draws)


@pytest.mark.parametrize("policies", [("random", "random"), ("cpu", "greedy")])
def test_no_class_runs_away_with_another(cards, policies):
    shares = {pair: both_ways(cards, pair, *policies, MATCHES, seed=18).win_share for pair in PAIRS}
    lopsided = {pair: share for pair, share in shares.items() if not 0.25 <= share <= 0.75}
    assert not lopsided, lopsided


def test_a_pairing_is_the_same_for_the_same_seed(cards):
    first = pairing(cards, ("medic", "priest"), ("random", "cpu"), 6, seed=3)
    assert first == pairing(cards, ("medic", "priest"), ("random", "cpu"), 6, seed=3)
    assert first.matches == 6


def test_the_simulated_starting_packs_are_the_core_set_pack_kind():
    packs = json.loads(PACKS.read_text(encoding="utf-8"))["packs"]
    for kind in ("core", "golden"):
        pack = next(p for p in packs if p["kind"] == kind)
        assert pack["cards"] == PACK_CARDS and pack["floor"] == PACK_FLOOR.value
        assert pack["rarity_weights"] == {r.value: w for r, w in PACK_RARITY_WEIGHTS}


def test_a_new_players_class_deck_is_legal_and_owned(cards):
    owned, rng = starting_collection(cards, RandomState(seed=5, stream="new player"))
    assert len(owned) == 31 * PACK_CARDS
    for card_class in HERO_CLASSES:
        deck, rng = starter_deck(owned, card_class.value, rng)
        assert card_problems(deck) == []
        assert {c.card_class.value for c in deck} <= {card_class.value, "neutral"}
        assert all(deck.count(card) <= owned.count(card) for card in deck)


def test_a_greedy_new_player_wins_most_matches_against_the_cpu(cards):
    by_name = {card.name: card for card in cards}
    counts = json.loads(CPU_DECKS.read_text(encoding="utf-8"))["standard"]["cards"]
    cpu_deck = [by_name[name] for name, count in counts.items() for _ in range(count)]
    greedy, _ = new_player_band(cards, cpu_deck, POLICIES["greedy"], 20, seed=30)
    clicking, _ = new_player_band(cards, cpu_deck, POLICIES["random"], 20, seed=30)

    def overall(tallies):
        found = tallies.values()
        return Tally(*(sum(getattr(t, f) for t in found) for f in ("wins", "losses", "draws")))

    # Issue 30's band for a greedy player (over the five classes; class by class the full
    # run has Engineer at 0.53, docs/balance/chronovore.md). A random-clicking player
    # mostly drops its own hero in fights: its 20-50% is out of the CPU's reach (against
    # a CPU that never plays a card it wins 15-35%), so here only its upper bound holds,
    # and it wins less than the greedy player whatever the class.
    assert 0.55 <= overall(greedy).win_share <= 0.75
    assert overall(clicking).win_share <= 0.50
    assert all(clicking[c].win_share < greedy[c].win_share for c in greedy)
