"""``games.kit.chance.uniform`` draws what its definition draws: SHA-256 over
"seed:stream:counter" as a 256-bit integer, rejected at or above the largest multiple of
n, the rest taken modulo n (persisted matches of the three games replay from it)."""

from __future__ import annotations

import hashlib

import pytest

from games.kit.chance import uniform

SPACE = 1 << 256


def by_definition(seed: int, stream: str, counter: int, n: int) -> tuple[int, int]:
    limit = SPACE - (SPACE % n)
    while True:
        digest = hashlib.sha256(f"{seed}:{stream}:{counter}".encode()).digest()
        value = int.from_bytes(digest, "big")
        counter += 1
        if value < limit:
            return value % n, counter


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, 2**64 - 1, 2**64, 2**64 + 1, 3**150])
def test_uniform_is_its_definition(n):
    for seed, stream in [(0, "chance"), (2**63 - 1, "attacker:3"), (-5, "deck")]:
        for counter in range(40):
            assert uniform(seed, stream, counter, n) == by_definition(seed, stream, counter, n)


def test_a_draw_rejected_at_the_top_of_the_space_draws_again():
    # n = 2**255 + 1: the limit is 2**255 + 1 and about half of all values are rejected.
    n = 2**255 + 1
    rejected = 0
    for counter in range(64):
        index, after = uniform(7, "chance", counter, n)
        assert (index, after) == by_definition(7, "chance", counter, n)
        rejected += after - counter - 1
    assert rejected > 0
