"""Short leases on "this player is active", so a hot route skips the accounts RPC.

Every player route must refuse a locked account, and the rulebook locks an
account "immediately" when its deletion is requested. Asking accounts on every
request honours that, but the RPC through RabbitMQ is most of a request's cost
(docs/performance.md). Instead the gateway remembers an *active* answer from
accounts for ``lease_seconds`` (ours: 1 s), and deleting an account pays that
second instead of every request paying the RPC:

* a lease starts when the RPC was **sent**, before accounts looked at the row;
  so a lease that says "active" ends at most ``lease_seconds`` after the lock
  committed, on every replica (monotonic clocks; durations, not wall time);
* ``DELETE /me`` answers only ``lease_seconds`` after accounts committed the
  lock (:meth:`PlayerLeases.outlast`), so once a client has been told its
  deletion started, every replica's lease has run out: the next request of
  that account, anywhere, asks accounts and is refused;
* a locked answer is never remembered, and the replica that handles the
  deletion forgets its own lease at once.

What a lease may make stale: ``points`` on ``GET /me`` (they arrive by event
anyway, so at most ``lease_seconds`` later than without the lease).
``registered_now`` is only ever true on the request that registered the player.
``lease_seconds`` 0 turns leases off (every request asks accounts).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

Player = dict[str, Any]


class PlayerLeases:
    def __init__(
        self,
        lease_seconds: float,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        max_players: int = 100_000,
    ) -> None:
        if lease_seconds < 0:
            raise ValueError("lease_seconds must not be negative")
        self.lease_seconds = lease_seconds
        self._now = now
        self._sleep = sleep
        self._max_players = max_players
        self._leases: OrderedDict[str, tuple[Player, float]] = OrderedDict()  # player, ends
        self._renewing: set[str] = set()

    async def active_player(
        self, sub: str, ask_accounts: Callable[[], Awaitable[Player]]
    ) -> Player:
        """The player of ``sub`` under a live lease, else accounts' answer (leased if active).

        In a lease's last quarter one request renews it while the others go on using
        it, so a busy player's lease never lapses and never sends a burst of calls."""
        lease = self._leases.get(sub)
        if lease is not None:
            player, ends = lease
            now = self._now()
            if now < ends:
                renew = now >= ends - self.lease_seconds / 4 and sub not in self._renewing
                if not renew:
                    return player
                self._renewing.add(sub)
                try:
                    return await self._ask(sub, ask_accounts)
                finally:
                    self._renewing.discard(sub)
        return await self._ask(sub, ask_accounts)

    def forget(self, sub: str) -> None:
        self._leases.pop(sub, None)

    async def outlast(self, sub: str) -> None:
        """Return only once every lease on ``sub`` granted before now has ended, here or on
        any replica; call it after accounts committed a lock (other requests go on)."""
        self.forget(sub)
        if self.lease_seconds > 0:
            await self._sleep(self.lease_seconds)

    async def _ask(self, sub: str, ask_accounts: Callable[[], Awaitable[Player]]) -> Player:
        sent_at = self._now()
        try:
            player = await ask_accounts()
        except BaseException:
            self.forget(sub)
            raise
        if self.lease_seconds > 0 and player.get("status") == "active":
            self._remember(sub, {**player, "registered_now": False}, sent_at + self.lease_seconds)
        else:
            self.forget(sub)
        return player

    def _remember(self, sub: str, player: Player, ends: float) -> None:
        self._leases[sub] = (player, ends)
        self._leases.move_to_end(sub)
        while len(self._leases) > self._max_players:
            self._leases.popitem(last=False)
