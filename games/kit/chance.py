"""Chance as an explicit, persisted step: no global ``random``, no hidden generator.

A draw is SHA-256 over (seed, stream label, counter). The match state keeps
the seed and the counter of its ``chance`` stream, so every roll is part of
the state and replaying the action log repeats it exactly. Rejection sampling
keeps a choice among n outcomes exactly uniform (no modulo bias).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

_SPACE = 1 << 256
MATCH_STREAM = "chance"


def _value(seed: int, stream: str, counter: int) -> int:
    digest = hashlib.sha256(f"{seed}:{stream}:{counter}".encode()).digest()
    return int.from_bytes(digest, "big")


def uniform(seed: int, stream: str, counter: int, n: int) -> tuple[int, int]:
    """An index in [0, n) and the next unused counter of that stream."""
    if n < 1:
        raise ValueError("a choice needs at least one outcome")
    limit = _SPACE - (_SPACE % n)
    while True:
        value = _value(seed, stream, counter)
        counter += 1
        if value < limit:
            return value % n, counter


@dataclass(frozen=True)
class RandomState:
    """The match's random state: its seed and how many chance draws it has used."""

    seed: int
    counter: int = 0

    def draw(self, n: int) -> tuple[int, RandomState]:
        index, counter = uniform(self.seed, MATCH_STREAM, self.counter, n)
        return index, replace(self, counter=counter)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "counter": self.counter}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RandomState:
        return cls(seed=int(data["seed"]), counter=int(data["counter"]))
