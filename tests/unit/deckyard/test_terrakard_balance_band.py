"""A new TerraKard player's attacks on the level-1 training plan, as measured in
docs/balance/terrakard.md (``deckyard balance --game terrakard``).

Issue 30's bands (greedy 55-75%, random 20-50%) are **not met** by the shipped numbers:
a new player who cannot see the plan wins about 28% with the best deck of the starting
collection, against the automatic plan of that same collection (the defense's rulebook
rampart and ties decide it; the report says why). So this test holds what is measured,
widened for the sampling error of 300 matches (about +-5 points), and the proposal the
report makes: with the level-1 defense budget at 7 (ours; config.LEVEL_BUDGETS has 9)
the same player is inside both bands. When that change (or another) ships, move the
first test to the bands and drop the second.
"""

from __future__ import annotations

import pytest

from deckyard import balance
from deckyard.cli import main

MATCHES = 300
SEED = 30  # any seed; fixed so the test gives the same verdict every run


def attacker(
    deck: str, policy: str, defense: str = "training", matches: int = MATCHES
) -> balance.Summary:
    setup = balance.Setup(
        {"attacker": (deck,), "defender": (defense,)},
        {"attacker": policy, "defender": "cpu"},
        SEED,
        "terrakard",
    )
    return balance.summarise(setup, balance.simulate(setup, matches))


def test_against_the_training_plan_a_new_player_wins_what_the_report_measures() -> None:
    greedy = attacker("starter", "greedy")
    clicking = attacker("starter:any", "random")
    # Measured at 1,000 matches: greedy 28.4%, random 9.4% (the bands: 55-75%, 20-50%).
    assert 0.22 <= greedy.wins["attacker"].value <= 0.36
    assert 0.05 <= clicking.wins["attacker"].value <= 0.16
    # Every attack ends (five rounds at most) in the engine's words; a won one against
    # this plan takes two stars or three (the defense ends at half its HP or less).
    words = greedy.results["attacker"]
    assert sum(words.values()) == MATCHES and greedy.unfinished == 0
    assert set(words) <= {"defeat", "two_stars", "three_stars"}


def test_a_player_who_knew_the_plan_would_win_nearly_always() -> None:
    # The one-ply lookahead sees each defense card's reveal: the ceiling of information.
    assert attacker("starter", "lookahead", matches=100).wins["attacker"].value >= 0.95


def test_with_the_proposed_level_one_defense_budget_the_bands_hold() -> None:
    plan = "automatic:7:balanced"  # the automatic plan's choice within 7, not 9
    greedy = attacker("starter", "greedy", plan).wins["attacker"].value
    clicking = attacker("starter:any", "random", plan).wins["attacker"].value
    # The bands widened by 5 points for the sampling error (measured: 74.4%, 21.2%).
    assert 0.55 <= greedy <= 0.80
    assert 0.15 <= clicking <= 0.50
    assert clicking < greedy


def test_the_command_runs_an_attack_on_the_training_plan_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["balance", "--game", "terrakard", "--matches", "5", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "attacker | random | starter" in out and "defender | cpu    | training" in out
    assert "results: attacker " in out  # the stars, in the engine's words
