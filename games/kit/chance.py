"""Chance as an explicit, persisted step: no global ``random``, no hidden generator.

A draw is SHA-256 over (seed, stream label, counter). A match state keeps a
``RandomState`` (its seed, the stream's label and how many draws it has
used), so every roll is part of the state and replaying the action log
repeats it exactly. Rejection sampling keeps a choice among n outcomes
exactly uniform (no modulo bias). Any game may keep several streams apart
(the Quest CPU draws on its own labels, so its choices never shift the
match's chance draws).

Rolls made outside a match (a reward, a starter grant) take a ``RandomSource``
from the caller instead; the caller persists what was drawn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from games.kit.frozen import evolve, plain

try:  # CPython's own SHA-256 (the same digests): about a quarter fewer instructions
    # than OpenSSL's through hashlib for these short inputs; hashlib's where it is absent.
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - another interpreter
    _sha256 = hashlib.sha256

T = TypeVar("T")

_SPACE: Final = 1 << 256
# Below this every value is below the rejection limit of any n up to 2**64
# (``_SPACE % n < n``): one comparison instead of the limit's 256-bit arithmetic.
_SAFE: Final = _SPACE - (1 << 64)
_SAFE_N: Final = 1 << 64
MATCH_STREAM = "chance"  # the default label; part of every existing Quest state's draws


def _value(seed: int, stream: str, counter: int) -> int:
    digest = _sha256(f"{seed}:{stream}:{counter}".encode()).digest()
    return int.from_bytes(digest, "big")


def uniform(seed: int, stream: str, counter: int, n: int) -> tuple[int, int]:
    """An index in [0, n) and the next unused counter of that stream."""
    if n < 1:
        raise ValueError("a choice needs at least one outcome")
    while True:
        value = _value(seed, stream, counter)
        counter += 1
        # value < limit, the limit being the largest multiple of n in the space
        if (value < _SAFE and n <= _SAFE_N) or value < _SPACE - (_SPACE % n):
            return value % n, counter


@plain
@dataclass(frozen=True)
class RandomState:
    """A match's random state: its seed, its stream and how many draws it has used."""

    seed: int
    counter: int = 0
    stream: str = MATCH_STREAM

    def draw(self, n: int) -> tuple[int, RandomState]:
        index, counter = uniform(self.seed, self.stream, self.counter, n)
        return index, evolve(self, counter=counter)

    def choose(self, options: Sequence[T]) -> tuple[T, RandomState]:
        index, after = self.draw(len(options))
        return options[index], after

    def to_dict(self) -> dict[str, Any]:
        # The default stream is left out, so stored Quest states keep their shape.
        label = {} if self.stream == MATCH_STREAM else {"stream": self.stream}
        return {"seed": self.seed, "counter": self.counter, **label}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RandomState:
        return cls(
            seed=int(data["seed"]),
            counter=int(data["counter"]),
            stream=str(data.get("stream", MATCH_STREAM)),
        )


class RandomSource(Protocol):
    """A caller's source of rolls for a draw it persists (shared.randomness has two)."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...

    def choice(self, items: Sequence[T]) -> T: ...

    def sample(self, items: Sequence[T], k: int) -> list[T]: ...
