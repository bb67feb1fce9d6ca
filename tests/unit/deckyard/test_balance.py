"""``deckyard balance``: reproducible from its seed, whatever the number of processes."""

from __future__ import annotations

import math

import pytest

from deckyard import balance
from deckyard.cli import main

GRIT = ("Burrowk", "Mossjaw", "Pebblup", "Field Kit", "Reserve Focus")
CPU = ("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus")


def _setup(seed: int = 1) -> balance.Setup:
    return balance.Setup({"player": GRIT, "cpu": CPU}, {"player": "greedy", "cpu": "random"}, seed)


def test_the_same_seed_gives_the_same_matches_in_one_process_or_two() -> None:
    one = balance.simulate(_setup(), 12, workers=1)
    assert balance.simulate(_setup(), 12, workers=2) == one
    assert [p.index for p in one] == list(range(12))
    assert all(p.winner in ("player", "cpu") and p.first in ("player", "cpu") for p in one)
    assert balance.simulate(_setup(seed=2), 12) != one


def test_wilson_interval() -> None:
    low, high = balance.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert balance.wilson(0, 10)[0] == 0.0 and balance.wilson(10, 10)[1] == 1.0
    assert all(math.isnan(x) for x in balance.wilson(0, 0))


def test_the_report_has_each_seat_the_length_and_the_first_mover() -> None:
    setup = _setup()
    text = balance.report(setup, balance.simulate(setup, 10))
    assert "10 matches, --seed 1" in text
    assert "player | greedy" in text and "cpu    | random" in text
    assert "match length: actions mean" in text
    assert "first-player advantage: the first mover won" in text


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--matches", "4", "--player-policy", "greedy"]) == 0
    assert "win rate (95% CI)" in capsys.readouterr().out


def test_an_unknown_card_is_refused() -> None:
    with pytest.raises(ValueError, match="Nobody"):
        balance.deck(balance.load_catalogue(), ["Nobody"])
