"""``deckyard balance``: reproducible from its seed, whatever the number of processes."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from deckyard import balance
from deckyard.cli import main

GRIT = ("Burrowk", "Mossjaw", "Pebblup", "Field Kit", "Reserve Focus")
CPU = ("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus")


def _setup(seed: int = 1, cpu: str = "random") -> balance.Setup:
    return balance.Setup({"player": GRIT, "cpu": CPU}, {"player": "greedy", "cpu": cpu}, seed)


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


def test_the_cpu_seat_plays_the_games_own_cpu_policy_and_never_swaps() -> None:
    played = balance.simulate(_setup(cpu="cpu"), 6)
    setup = _setup(cpu="cpu")
    catalogue = balance.load_catalogue()
    game = balance.GAMES["quest"]
    cpu_policy = balance.policies(game)["cpu"]
    state = game.engine.new_match(
        game.settings(), {s: game.deck(catalogue, d) for s, d in setup.decks.items()}, 5, balance.T0
    )
    assert cpu_policy(game.engine, state, "cpu", 0, balance.T0) == game.cpu(state, "cpu")  # type: ignore[misc]
    assert all(p.winner is not None for p in played)


def test_each_card_played_is_counted_for_its_seat_and_its_wins() -> None:
    setup = _setup(cpu="cpu")
    played = balance.simulate(setup, 20)
    summary = balance.summarise(setup, played)
    rows = {(r.seat, r.card): r for r in summary.cards}
    assert set(rows) == {("player", c) for c in GRIT} | {("cpu", c) for c in CPU}
    for (seat, card), row in rows.items():
        with_it = [p for p in played if card in p.cards[seat]]
        assert row.played.hits == len(with_it) and row.played.n == 20
        assert row.won_when_played.hits == sum(1 for p in with_it if p.winner == seat)
    # Every match's Creatures act: some Creature of each seat was played in every match.
    assert all(set(p.cards["player"]) & set(GRIT[:3]) for p in played)


def test_the_lookahead_policy_beats_the_random_one_in_a_mirror() -> None:
    mirror = {"player": CPU, "cpu": CPU}
    setup = balance.Setup(mirror, {"player": "lookahead", "cpu": "random"}, 3)
    played = balance.simulate(setup, 30)
    assert sum(1 for p in played if p.winner == "player") >= 20


def test_named_decks_and_a_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--matches", "3", "--player-deck", "starter:Grit", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "Burrowk, Mossjaw, Pebblup, Field Kit, Reserve Focus" in out
    assert "3/3 matches" in err


def test_plots_and_a_page_are_written(tmp_path: Path) -> None:
    from deckyard.balance_plots import write_report

    setup = _setup(cpu="cpu")
    page = write_report([balance.summarise(setup, balance.simulate(setup, 8))], tmp_path)
    pngs = list(tmp_path.glob("*.png"))
    assert len(pngs) == 1 and pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = page.read_text(encoding="utf-8")
    assert f'src="{pngs[0].name}"' in text and "win rate when played" in text
