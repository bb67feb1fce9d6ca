"""bench/harness.py's pure helpers: the one table of ``make bench`` and its ratios."""

import importlib.util
import math
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[3] / "bench" / "harness.py"
_SPEC = importlib.util.spec_from_file_location("bench_harness", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
harness = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = harness  # its dataclasses look their module up
_SPEC.loader.exec_module(harness)


def result(scenario, rps, unit="req/s", **fields):
    values = {
        "requests": 100,
        "duration_s": 1.0,
        "p50_ms": 1.0,
        "p99_ms": 2.0,
        "non2xx": 0,
        "socket_errors": 0,
    }
    values.update(fields)
    return harness.Result(scenario=scenario, rps=rps, unit=unit, **values)


def test_the_ratio_is_the_rate_over_the_baselines_req_per_second():
    baseline = 400.0
    assert harness.times_baseline(result("gateway /me", 200.0), baseline) == 0.5
    assert harness.times_baseline(result("baseline /ping", 400.0), baseline) == 1.0


def test_rates_of_events_or_matches_are_not_compared_with_requests():
    assert harness.times_baseline(result("reward pipeline", 150.0, "events/s"), 400.0) is None
    assert harness.times_baseline(result("engine", 180.0, "matches/s"), 400.0) is None


def test_without_a_baseline_nothing_is_compared():
    assert harness.times_baseline(result("gateway /me", 200.0), None) is None


def test_the_baseline_is_the_ping_row_of_the_same_run():
    rows = [result("gateway /me", 200.0), result("baseline /ping", 400.0)]
    assert harness.baseline_rps(rows) == 400.0
    assert harness.baseline_rps(rows[:1]) is None
    assert harness.baseline_rps([result("baseline /ping", 0.0)]) is None  # served nothing


def test_errors_add_http_errors_and_the_other_failures():
    row = result("x", 1.0, non2xx=2, socket_errors=3, failures=4)
    assert row.errors == 9


def test_the_summary_table_has_one_row_a_scenario_and_a_dash_where_no_ratio():
    rows = [
        result("baseline /ping", 400.0),
        result("gateway /me", 200.0, non2xx=1),
        result("engine", 180.0, "matches/s", p50_ms=5.25, p99_ms=float("nan")),
    ]
    lines = harness.summary_table(rows).splitlines()
    assert len(lines) == 2 + len(rows)
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    times = "\N{MULTIPLICATION SIGN}"
    assert cells[0] == [
        "scenario",
        "unit",
        "rate",
        "p50 ms",
        "p99 ms",
        "errors",
        f"{times} baseline",
    ]
    assert cells[2] == ["baseline /ping", "req/s", "400.0", "1.0", "2.0", "0", "1.00"]
    assert cells[3] == ["gateway /me", "req/s", "200.0", "1.0", "2.0", "1", "0.50"]
    assert cells[4] == ["engine", "matches/s", "180.0", "5.2", "-", "0", "-"]


def test_markdown_columns_are_as_wide_as_their_widest_cell_and_aligned():
    table = harness.markdown(("a", "bb"), [("xyz", "1"), ("w", "22")])
    assert table.splitlines() == [
        "| a   | bb |",
        "|-----|----|",
        "| xyz |  1 |",
        "| w   | 22 |",
    ]
    assert harness.markdown(("n", "k"), [("1", "x")], align="rl").splitlines()[2] == "| 1 | x |"


@pytest.mark.parametrize(("p", "expected"), [(0, 1.0), (50, 2.0), (51, 3.0), (99, 4.0), (100, 4.0)])
def test_percentile_is_nearest_rank(p, expected):
    assert harness.percentile([4.0, 1.0, 3.0, 2.0], p) == expected


def test_the_percentile_of_nothing_is_nan():
    assert math.isnan(harness.percentile([], 50))


def test_cpu_summary_gives_each_process_per_unit_and_the_rest_of_the_machine():
    text = harness.cpu_summary({"svc": 50.0, "machine": 80.0}, rate=100.0, per="event")
    assert text.startswith("svc 50% (5.00 ms/event); machine 80% of ")
    assert text.endswith("of which other processes 30%")
    assert harness.cpu_summary({"engine": 99.0}, rate=0.0) == "engine 99%"
