"""Rate limits for the mutating routes: a token bucket per player and per address.

A write whose token verifies spends from its player's bucket, and only from it. A
write whose token is missing or refused spends from its client address's bucket
instead, and is refused with 429 once that is empty. Two budgets that never mix:
behind one ingress pod (or one carrier NAT) many players share an address, and
a flood of garbage tokens from there must not cost an honest player's next write
anything (issue 13). The token is checked before the address is charged; that
costs little (a malformed token fails in microseconds, a good one is remembered,
an unknown key id refetches at most once per window: gateway/auth.py) and is the
only way to know which budget a request belongs to. The address is the client's,
through the trusted proxies only (gateway/clientaddress.py).

An Author's write on an authoring route spends from a third budget, its author bucket,
larger than a player's and never mixed with it (issue 30): Authors work at volume
(drafting a pipeline's output, editing, approving one item after another) where a
player's budget is sized for play, and they are few, named in Auth0. The same person
playing a game spends their player budget as anyone does; a token without the Author
role on an authoring route spends its player budget before the 403.

Each gateway replica keeps its own buckets in memory (ours: no shared store is
part of the stack), so with N replicas a client can reach at most N times the
limit; the ingress spreads one client's requests, which keeps that bound loose
but finite. Buckets are forgotten least-recently-used beyond ``max_keys``, so a
flood of addresses costs bounded memory.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gateway.clientaddress import ClientAddresses
from shared.errors import RateLimited

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SOCKET_PEER = ClientAddresses()  # no trusted proxy: the peer is the client


@dataclass(frozen=True)
class Limit:
    """``burst`` requests at once, then ``per_minute`` on average."""

    per_minute: float
    burst: int

    def __post_init__(self) -> None:
        if self.per_minute <= 0 or self.burst < 1:
            raise ValueError("a limit needs a positive rate and a burst of at least 1")


class TokenBuckets:
    def __init__(
        self,
        limit: Limit,
        now: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self._limit = limit
        self._now = now
        self._max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, at

    def take(self, key: str) -> float | None:
        """Spend one token for ``key``; None if allowed, else seconds until the next one."""
        now = self._now()
        rate = self._limit.per_minute / 60.0
        tokens, at = self._buckets.pop(key, (float(self._limit.burst), now))
        tokens = min(float(self._limit.burst), tokens + (now - at) * rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > self._max_keys:
            self._buckets.popitem(last=False)
        return None if allowed else (1.0 - tokens) / rate


AUTHOR_LIMIT = Limit(per_minute=600, burst=120)  # ours: five times a player's


class RateLimits:
    """The limits the gateway applies to every mutating request."""

    def __init__(
        self,
        per_player: Limit,
        per_address: Limit,
        now: Callable[[], float] = time.monotonic,
        addresses: ClientAddresses = SOCKET_PEER,
        per_author: Limit = AUTHOR_LIMIT,
    ) -> None:
        self._players = TokenBuckets(per_player, now)
        self._addresses = TokenBuckets(per_address, now)
        self._authors = TokenBuckets(per_author, now)
        self._client_addresses = addresses

    def check_unauthenticated(self, method: str, environ: Mapping[str, Any]) -> None:
        """Charge a request whose token is missing or refused to its client address."""
        if method in MUTATING_METHODS:
            address = self._client_addresses.of(environ)
            _refuse_if_due(self._addresses.take(address), "address")

    def check_player(self, method: str, sub: str) -> None:
        if method in MUTATING_METHODS:
            _refuse_if_due(self._players.take(sub), "player")

    def check_author(self, method: str, sub: str) -> None:
        """An Author's write on an authoring route: its author bucket, not its player's."""
        if method in MUTATING_METHODS:
            _refuse_if_due(self._authors.take(sub), "author")


def _refuse_if_due(wait: float | None, scope: str) -> None:
    if wait is not None:
        retry_after = max(1, math.ceil(wait))
        raise RateLimited(
            "rate_limited",
            f"too many changes from this {scope}; try again in {retry_after} s",
            {"retry_after": retry_after, "scope": scope},
        )
