"""bench/chronovore_engine.py and bench/terrakard_engine.py on a handful of games: the
row they give ``make bench`` and their reproducibility."""

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"
SCRIPTS = [
    ("chronovore_engine", "--matches", "chronovore_result", "matches/s"),
    ("terrakard_engine", "--attacks", "terrakard_result", "attacks/s"),
]


@pytest.fixture
def bench_path(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))  # the scripts import harness and pure


def played(name, count_option, count, seed):
    script = importlib.import_module(name)
    return script, script.run(script.parse_args([count_option, str(count), "--seed", str(seed)]))


@pytest.mark.parametrize(("name", "count_option", "result_of", "unit"), SCRIPTS)
def test_the_row_counts_whole_games_and_their_times(
    bench_path, name, count_option, result_of, unit
):
    script, simulation = played(name, count_option, 6, 1)
    row = getattr(script, result_of)(simulation)
    assert row.scenario == name.removesuffix("_engine")
    assert row.unit == unit
    assert row.requests == 6
    assert row.rps > 0 and row.duration_s >= 0
    assert 0 < row.p50_ms <= row.p99_ms
    assert row.errors == 0
    assert any(note.startswith("goal >= ") for note in row.notes)
    assert len(simulation.played.summaries) == len(set(simulation.played.summaries)) == 6


@pytest.mark.parametrize(("name", "count_option", "result_of", "unit"), SCRIPTS)
def test_the_same_seed_plays_the_same_games(bench_path, name, count_option, result_of, unit):
    _, first = played(name, count_option, 5, 3)
    _, again = played(name, count_option, 5, 3)
    _, other = played(name, count_option, 5, 4)
    assert first.played.summaries == again.played.summaries
    assert first.played.digest() == again.played.digest()
    assert other.played.digest() != first.played.digest()


@pytest.mark.parametrize(("name", "count_option", "result_of", "unit"), SCRIPTS)
def test_the_report_names_the_goal_and_the_digest(
    bench_path, capsys, name, count_option, result_of, unit
):
    script = importlib.import_module(name)
    assert script.main([count_option, "3"]) == 0
    out = capsys.readouterr().out
    assert f"{script.GOAL:,.0f} {unit} on one core: " in out
    assert "results digest: " in out
    assert "p50" in out and "p99" in out
