"""The shipped Quest catalogue keeps every starter deck inside the documented band
against the CPU deck and policy (docs/balance.md, "Targets"; docs/quest-battles.md).

A seeded simulation, sized to run in seconds: 150 matches a starter deck and policy.
A catalogue change (a new replacement in services/authoring/seed/) that moves a
starter's win rate outside its band fails here; run ``deckyard balance`` at full size
before shipping one (docs/balance.md, "How to rerun").
"""

from __future__ import annotations

import pytest

from deckyard import balance, balance_quest

MATCHES = 150
SEED = 20  # any seed; fixed so the test gives the same verdict every run
# Ours (docs/balance.md): the targets, widened by 5 points on each side for the
# sampling error of 240 matches (a 95% interval is about +-6 points around 50%).
GREEDY_BAND = (0.55, 0.80)  # target 60-75%
RANDOM_BAND = (0.20, 0.55)  # target 25-50%; "random" is the CPU's own policy

CATALOGUE = balance_quest.load_catalogue()


def win_rate(affinity: str, policy: str) -> float:
    setup = balance.Setup(
        {
            "player": balance_quest.starter_deck(CATALOGUE, affinity),
            "cpu": balance_quest.CPU_NAMES,
        },
        {"player": policy, "cpu": "cpu"},
        SEED,
        catalogue=CATALOGUE,
    )
    played = balance.simulate(setup, MATCHES)
    return sum(1 for p in played if p.winner == "player") / MATCHES


@pytest.mark.parametrize("affinity", balance_quest.STARTER_AFFINITIES)
def test_a_greedy_new_player_wins_a_fair_share_and_a_random_one_less(affinity: str) -> None:
    greedy, random = win_rate(affinity, "greedy"), win_rate(affinity, "cpu")
    assert GREEDY_BAND[0] <= greedy <= GREEDY_BAND[1], f"{affinity} greedy {greedy:.1%}"
    assert RANDOM_BAND[0] <= random <= RANDOM_BAND[1], f"{affinity} random {random:.1%}"
    assert random < greedy  # playing well pays
