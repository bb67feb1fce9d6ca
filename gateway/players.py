"""Leases on "this player is active", so a hot route skips the accounts RPC.

Every player route must refuse a locked account, and the rulebook locks an
account "immediately" when its deletion is requested. Asking accounts on every
request honours that, but the RPC through RabbitMQ is most of a request's cost
(docs/performance.md). Instead the gateway remembers an *active* answer from
accounts, for two lengths of time:

* **the short lease** (``lease_seconds``, ours 1 s) holds on its own: a lease starts
  when the RPC was **sent**, before accounts looked at the row, so it ends at most
  ``lease_seconds`` after a lock committed, on every replica (monotonic clocks;
  durations, not wall time);
* **the long lease** (``trust_seconds``, ours 300 s) holds only while this replica
  is *caught up* with the push stream (gateway/push/watch.py): it has read back a
  tick it published itself less than ``lease_seconds`` ago. A stream is read
  in order, so it has then read every revocation that reached the stream before
  that tick was sent; a revocation read drops the lease at once (:meth:`revoke`).

``DELETE /me`` answers only once this replica has read a revocation of the
account from the stream (its own notice, published after accounts committed the
lock, or accounts' ``AccountDeletionRequested``) and ``lease_seconds`` more have
passed (:meth:`outlast`). Then on every replica a long lease is either dropped
(the replica read the revocation) or untrusted (its last tick read back was sent
more than ``lease_seconds`` ago, i.e. before the revocation was in the stream),
and a short lease has run out: the next request of that account, anywhere, asks
accounts and is refused. An answer of accounts still in flight when the revocation
is read is not remembered. A locked answer is never remembered.

What a lease may make stale: ``points`` on ``GET /me``, which is served from the
short lease only (they arrive by event anyway, so at most ``lease_seconds`` later than
without the lease); ``registered_now`` is only ever true on the request that
registered the player. ``lease_seconds`` 0 turns leases off (every request
asks accounts); ``trust_seconds`` 0 keeps only the short lease.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from shared.errors import ServiceUnavailable

Player = dict[str, Any]
REVOCATIONS_KEPT_SECONDS = 120.0  # longer than any accounts call can be in flight
CONFIRM_SECONDS = 10.0  # how long DELETE /me waits to read the revocation back


class PlayerLeases:
    def __init__(
        self,
        lease_seconds: float,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        max_players: int = 100_000,
        trust_seconds: float = 0.0,
        caught_up_at: Callable[[], float | None] = lambda: None,
        confirm_seconds: float = CONFIRM_SECONDS,
    ) -> None:
        if lease_seconds < 0 or trust_seconds < 0:
            raise ValueError("lease_seconds and trust_seconds must not be negative")
        self.lease_seconds = lease_seconds
        self.trust_seconds = trust_seconds if lease_seconds > 0 else 0.0
        self._now = now
        self._sleep = sleep
        self._max_players = max_players
        self._caught_up_at = caught_up_at
        self._confirm_seconds = confirm_seconds
        self._leases: OrderedDict[str, tuple[Player, float]] = OrderedDict()  # player, granted
        self._renewing: set[str] = set()
        self._revoked: OrderedDict[str, float] = OrderedDict()  # sub -> when read here
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}

    def now(self) -> float:
        """This replica's clock for leases (monotonic)."""
        return self._now()

    def caught_up(self, now: float) -> bool:
        """Has this replica read the stream up to less than ``lease_seconds`` ago? (Strictly
        less: a tick sent exactly when a revocation was read elsewhere may precede it.)"""
        caught = self._caught_up_at()
        return caught is not None and now - caught < self.lease_seconds

    async def active_player(
        self, sub: str, ask_accounts: Callable[[], Awaitable[Player]], current: bool = False
    ) -> Player:
        """The player of ``sub`` under a live lease, else accounts' answer (leased if active).
        ``current``: only the short lease serves it (``GET /me`` shows the player's points,
        which a long lease would keep for minutes; the gate alone may use the long one).

        In a lease's last quarter one request renews it while the others go on using
        it, so a busy player's lease never lapses and never sends a burst of calls."""
        lease = self._leases.get(sub)
        if lease is not None:
            player, granted = lease
            now = self._now()
            length = self.lease_seconds
            if not current and self.trust_seconds > length and self.caught_up(now):
                length = self.trust_seconds
            if now < granted + length:
                renew = now >= granted + length * 3 / 4 and sub not in self._renewing
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

    def revoke(self, sub: str) -> None:
        """A revocation of ``sub`` was read from the stream: its lease ends here now."""
        self.forget(sub)
        now = self._now()
        self._revoked[sub] = now
        self._revoked.move_to_end(sub)
        while self._revoked and next(iter(self._revoked.values())) < now - REVOCATIONS_KEPT_SECONDS:
            self._revoked.popitem(last=False)
        for waiter in self._waiting.pop(sub, []):
            if not waiter.done():
                waiter.set_result(None)

    def revoked_since(self, sub: str, since: float) -> bool:
        read = self._revoked.get(sub)
        return read is not None and read >= since

    async def outlast(
        self,
        sub: str,
        since: float,
        announce: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        """Return only once no lease on ``sub`` granted before now can still be trusted,
        here or on any replica; call it after accounts committed a lock, ``since`` being
        this clock's time before the lock was asked for (other requests go on).

        With long leases, ``announce`` publishes a revocation of ``sub`` to the stream;
        this waits until a revocation read back here (``revoke``), then
        ``lease_seconds``. None read back in ``confirm_seconds``: 503, and the client
        asks again (the same deletion; nothing is answered as started meanwhile)."""
        self.forget(sub)
        if self.trust_seconds > 0 and not self.revoked_since(sub, since):
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(sub, []).append(waiter)
            try:
                if announce is not None:
                    await announce(sub)
                await asyncio.wait_for(waiter, self._confirm_seconds)
            except TimeoutError:
                raise ServiceUnavailable(
                    "deletion_unconfirmed",
                    "the account is being locked; ask again in a moment",
                ) from None
            finally:
                waiting = self._waiting.get(sub, [])
                if waiter in waiting:
                    waiting.remove(waiter)
                if not waiting:
                    self._waiting.pop(sub, None)
        if self.lease_seconds > 0:
            await self._sleep(self.lease_seconds)

    async def _ask(self, sub: str, ask_accounts: Callable[[], Awaitable[Player]]) -> Player:
        sent_at = self._now()
        try:
            player = await ask_accounts()
        except BaseException:
            self.forget(sub)
            raise
        # A revocation read while the call was in flight may be newer than the answer.
        leasable = not self.revoked_since(sub, sent_at)
        if self.lease_seconds > 0 and player.get("status") == "active" and leasable:
            self._remember(sub, {**player, "registered_now": False}, sent_at)
        else:
            self.forget(sub)
        return player

    def _remember(self, sub: str, player: Player, granted: float) -> None:
        self._leases[sub] = (player, granted)
        self._leases.move_to_end(sub)
        while len(self._leases) > self._max_players:
            self._leases.popitem(last=False)
