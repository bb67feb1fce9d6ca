"""Split the suite into shards that run side by side (``scripts/run-tests``).

Most of an e2e or integration test's time is spent waiting (a container starting, a
message crossing RabbitMQ, a gateway process coming up), so two pytest processes on a
2-core machine finish the suite in far less than one does. ``TEST_SHARD=k/n`` keeps the
test files of shard ``k`` (0-based) of ``n``: whole files, so module fixtures start once,
dealt out largest first by a rough cost (a test through real services costs many unit
tests), each to the shard with the least so far. Every process collects the same tests,
so the deal is the same in every shard and each file runs in exactly one.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

# Rough seconds per test by tier, from `--durations` of whole runs: an e2e test starts
# five services and a gateway, an integration test one or two services.
COST_BY_TIER = {"e2e": 5.0, "integration": 2.0}
UNIT_COST = 0.3


def parse_shard(value: str) -> tuple[int, int]:
    index, _, count = value.partition("/")
    shard, shards = int(index), int(count)
    if not 0 <= shard < shards:
        raise ValueError(f"TEST_SHARD must be k/n with 0 <= k < n, not {value!r}")
    return shard, shards


def file_cost(path: str, tests: int) -> float:
    tier = next((name for name in COST_BY_TIER if f"/{name}/" in f"/{path}"), None)
    return tests * (COST_BY_TIER[tier] if tier else UNIT_COST)


def deal(tests_per_file: dict[str, int], shards: int) -> dict[str, int]:
    """Each file's shard: largest cost first, to the shard with the least so far."""
    load = [0.0] * shards
    dealt: dict[str, int] = {}

    def cost(path: str) -> float:
        return file_cost(path, tests_per_file[path])

    by_cost = sorted(tests_per_file, key=lambda path: (-cost(path), path))
    for path in by_cost:
        shard = min(range(shards), key=lambda index: (load[index], index))
        dealt[path] = shard
        load[shard] += cost(path)
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
