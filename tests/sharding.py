"""Split the suite into shards that run side by side (``scripts/run-tests``).

Most of an e2e or integration test's time is spent waiting (a container starting, a
message crossing RabbitMQ, a gateway process coming up), so two pytest processes on a
2-core machine finish the suite in far less than one does. ``TEST_SHARD=k/n`` keeps the
test files of shard ``k`` (0-based) of ``n``: whole files, so module fixtures start once.
Each tier (e2e, integration, unit) is dealt on its own, its files largest first (by
their number of tests), each to the shard with the least of that tier so far: an
estimate of what a test costs in one tier against another was far off (a first deal by
such costs left one shard with most of the unit tests and twice the other's time), and
within a tier the count of tests is a fair guide. Every process collects the same
tests, so the deal is the same in every shard and each file runs in exactly one.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

TIERS = ("e2e", "integration", "unit")


def parse_shard(value: str) -> tuple[int, int]:
    index, _, count = value.partition("/")
    shard, shards = int(index), int(count)
    if not 0 <= shard < shards:
        raise ValueError(f"TEST_SHARD must be k/n with 0 <= k < n, not {value!r}")
    return shard, shards


def tier_of(path: str) -> str:
    """``tests/<tier>/...``; anything else (tests/ itself) counts as unit."""
    return next((name for name in TIERS if f"/{name}/" in f"/{path}"), "unit")


def deal(tests_per_file: dict[str, int], shards: int) -> dict[str, int]:
    """Each file's shard: tier by tier, largest first, to the shard with the fewest
    tests of that tier so far (then the fewest in all, then the lowest index)."""
    in_tier = {tier: [0] * shards for tier in TIERS}
    in_all = [0] * shards
    dealt: dict[str, int] = {}
    for tier in TIERS:
        files = [path for path in tests_per_file if tier_of(path) == tier]
        for path in sorted(files, key=lambda path: (-tests_per_file[path], path)):
            load = in_tier[tier]
            shard = min(range(shards), key=lambda index: (load[index], in_all[index], index))
            dealt[path] = shard
            load[shard] += tests_per_file[path]
            in_all[shard] += tests_per_file[path]
    return dealt


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    value = os.environ.get("TEST_SHARD")
    if not value:
        return
    shard, shards = parse_shard(value)
    files = Counter(item.nodeid.split("::")[0] for item in items)
    dealt = deal(dict(files), shards)
    kept = [item for item in items if dealt[item.nodeid.split("::")[0]] == shard]
    deselected = [item for item in items if dealt[item.nodeid.split("::")[0]] != shard]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept
