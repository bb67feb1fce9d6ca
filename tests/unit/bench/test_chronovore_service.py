"""bench/chronovore_service.py's options as bench/run.py makes them, and its rounds row."""

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture
def bench_path(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))  # the scripts import harness


def test_run_py_sizes_the_packs_from_duration_and_leaves_the_rounds_out(bench_path):
    run = importlib.import_module("run")
    args = run.parse_args(["--scenario", "cvpacks", "--duration", "25"])
    options = args.script_options["chronovore_service"]
    assert (options.packs, options.pack_players, options.callers) == (300, 30, 8)
    assert options.packs_enabled and not options.rounds
    assert options.services == ("cards", "authoring")  # no gateway for packs alone
    assert options.gateway_port == args.base_port + 1000
    assert options.health_ports == [args.base_port + 1080, args.base_port + 1081]


def test_the_rounds_alone_run_the_whole_stack_for_half_the_duration(bench_path):
    run = importlib.import_module("run")
    options = run.parse_args(["--scenario", "cvround"]).script_options["chronovore_service"]
    assert options.rounds and not options.packs_enabled
    assert options.duration == 12 and options.players == 8
    assert "gateway" in options.services and len(options.health_ports) == 4


def test_nothing_to_measure_is_a_usage_error(bench_path):
    script = importlib.import_module("chronovore_service")
    with pytest.raises(SystemExit):
        script.parse_args(["--no-packs", "--no-rounds"])


def test_the_round_row_counts_the_locks_begun_in_the_window(bench_path):
    script = importlib.import_module("chronovore_service")
    args = script.parse_args(["--no-packs"])
    player = script.Player(0, "token", "deck", {})
    player.samples = [
        script.Sample(script.LOCK, 0.5, 0.100, 200),  # warm-up: not counted
        script.Sample(script.PLACE, 1.0, 0.020, 200),
        script.Sample(script.LOCK, 1.1, 0.200, 200),
        script.Sample(script.LOCK, 2.0, 0.300, 200),
        script.Sample(script.LOCK, 3.0, 0.050, 409),  # refused: an error, not a round
    ]
    row = script.rounds_result(script.Rounds([player], (1.0, 5.0), {}), args)
    assert (row.scenario, row.unit, row.requests) == ("chronovore round", "rounds/s", 2)
    assert row.rps == 0.5 and row.errors == 1
    assert (row.p50_ms, row.p99_ms) == (200.0, 300.0)
