"""Split the suite into shards that run side by side (``scripts/run-tests``).

Most of an e2e or integration test's time is spent waiting (a container starting, a
message crossing RabbitMQ, a gateway process coming up), so two pytest processes on a
2-core machine finish the suite in far less than one does. ``TEST_SHARD=k/n`` keeps the
test files of shard ``k`` (0-based) of ``n``: whole files, so module fixtures start once.

Files are dealt by what they cost: the seconds each took in a measured run
(``tests/durations.json``, written by ``make test-durations``: ``TEST_DURATIONS_OUT``
makes every shard record its files' setup + call + teardown time). A file the record
does not know yet (new since) is estimated at the mean seconds per test of its tier
times its number of tests. The deal is the classic longest-first: each file, costliest
first, to the shard with the least time so far. (Dealing by the count of tests alone left
one shard at 11 minutes and the other at 25: an e2e file of six tests can cost more than
a unit file of six hundred.) Every process collects the same tests and reads the same
record, so the deal is the same in every shard and each file runs in exactly one.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest

TIERS = ("e2e", "integration", "unit")
DURATIONS = Path(__file__).with_name("durations.json")
UNKNOWN_TEST_SECONDS = 1.0  # a tier with no measured file at all (a first run)


def parse_shard(value: str) -> tuple[int, int]:
    index, _, count = value.partition("/")
    shard, shards = int(index), int(count)
    if not 0 <= shard < shards:
        raise ValueError(f"TEST_SHARD must be k/n with 0 <= k < n, not {value!r}")
    return shard, shards


def tier_of(path: str) -> str:
    """``tests/<tier>/...``; anything else (tests/ itself) counts as unit."""
    return next((name for name in TIERS if f"/{name}/" in f"/{path}"), "unit")


def estimated_costs(tests_per_file: dict[str, int], measured: dict[str, float]) -> dict[str, float]:
    """Each file's seconds: measured, else its tests times its tier's mean per test."""
    seconds: dict[str, float] = defaultdict(float)
    tests: dict[str, int] = defaultdict(int)
    for path, count in tests_per_file.items():
        if path in measured:
            seconds[tier_of(path)] += measured[path]
            tests[tier_of(path)] += count
    per_test = {tier: seconds[tier] / tests[tier] for tier in tests if tests[tier]}
    return {
        path: measured.get(path, count * per_test.get(tier_of(path), UNKNOWN_TEST_SECONDS))
        for path, count in tests_per_file.items()
    }


def deal(
    tests_per_file: dict[str, int], shards: int, measured: dict[str, float] | None = None
) -> dict[str, int]:
    """Each file's shard: costliest first (ties by path), to the shard with the least
    time so far (ties to the lowest index)."""
    costs = estimated_costs(tests_per_file, measured or {})
    load = [0.0] * shards
    dealt: dict[str, int] = {}
    for path in sorted(costs, key=lambda path: (-costs[path], path)):
        shard = min(range(shards), key=lambda index: (load[index], index))
        dealt[path] = shard
        load[shard] += costs[path]
    return dealt


def measured_durations(path: Path = DURATIONS) -> dict[str, float]:
    try:
        return {str(name): float(seconds) for name, seconds in json.loads(path.read_text()).items()}
    except FileNotFoundError:
        return {}


def file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    value = os.environ.get("TEST_SHARD")
    if not value:
        return
    shard, shards = parse_shard(value)
    dealt = deal(dict(Counter(file_of(item) for item in items)), shards, measured_durations())
    kept = [item for item in items if dealt[file_of(item)] == shard]
    deselected = [item for item in items if dealt[file_of(item)] != shard]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept


# -- recording a run's durations (TEST_DURATIONS_OUT=path) ---------------------------------

_seconds_per_file: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get("TEST_DURATIONS_OUT"):
        _seconds_per_file[report.nodeid.split("::")[0]] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("TEST_DURATIONS_OUT")
    if out and _seconds_per_file:
        rounded = {path: round(seconds, 1) for path, seconds in sorted(_seconds_per_file.items())}
        Path(out).write_text(json.dumps(rounded, indent=1) + "\n")
