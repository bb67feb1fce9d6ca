"""Injectable randomness.

Every roll that matters is drawn from a RandomSource and persisted before it
is shown. Production uses the operating system's generator; tests use a seeded
one, so the same seed gives the same rolls.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    def random(self) -> float:
        """A float in [0, 1)."""
        ...

    def randrange(self, stop: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...

    def sample(self, items: Sequence[T], k: int) -> list[T]: ...

    def shuffle(self, items: MutableSequence[T]) -> None: ...

    def seed_for_child(self) -> int:
        """A fresh 63-bit seed, e.g. to store with a match for replay."""
        ...

    def token_bytes(self, n: int) -> bytes:
        """``n`` random bytes: a provably fair server seed (from the operating system's
        generator in production, like ``secrets.token_bytes``)."""
        ...


class _RandomAdapter:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def random(self) -> float:
        return self._rng.random()

    def randrange(self, stop: int) -> int:
        return self._rng.randrange(stop)

    def choice(self, items: Sequence[T]) -> T:
        return self._rng.choice(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._rng.sample(list(items), k)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._rng.shuffle(items)

    def seed_for_child(self) -> int:
        return self._rng.getrandbits(63)

    def token_bytes(self, n: int) -> bytes:
        return self._rng.randbytes(n)


class SystemRandomSource(_RandomAdapter):
    """Unpredictable rolls from the operating system (not seedable)."""

    def __init__(self) -> None:
        super().__init__(secrets.SystemRandom())


class SeededRandomSource(_RandomAdapter):
    """Reproducible rolls for tests and replays."""

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))
