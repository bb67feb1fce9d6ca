"""Telling battle who is connected to the push channel (docs/quest-pvp.md, "Reconnect").

Battle ends a live Quest match whose player has had no push connection (WebSocket or
SSE) on any gateway replica for 90 seconds (services/battle/presence.py). This replica
reports what it knows: for each player whose connections here changed, how many are
open now (an absolute number, so a retry or a repeat is harmless), and, every
``HEARTBEAT_SECONDS`` at least, that it is alive (its lease, ``LEASE_SECONDS``). A
replica that dies stops renewing: battle counts its players disconnected from its last
report once the lease runs out, so a crash never leaves anyone "connected" for ever.

One task sends the reports, one at a time and in order; a change made while one is in
flight goes in the next. A report that fails is sent again (with the counts of that
moment) after a pause; nothing is lost, since every report says the whole truth for
the players it names.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from gateway.push.hub import PushHub

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0  # a report at least this often (the lease's renewal)
LEASE_SECONDS = 45.0  # how long battle trusts a report: three heartbeats
RETRY_SECONDS = 2.0
STOP_SECONDS = 2.0  # the last report may hold a shutdown this long, no more
MAX_PLAYERS_PER_REPORT = 5_000

Call = Callable[..., Awaitable[Any]]


class PresenceReporter:
    def __init__(
        self,
        hub: PushHub,
        call: Call,
        replica_id: str | None = None,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self.hub = hub
        self._call = call
        self.replica_id = replica_id or f"gateway-{uuid.uuid4()}"
        self.heartbeat_seconds = heartbeat_seconds
        self.lease_seconds = lease_seconds
        self._changed: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # Checked by the task too: before 3.12 ``wait_for`` can swallow a cancellation
        # that arrives as the wait ends.
        self._stopping = False
        self.reports = 0  # sent and answered
        hub.on_change = self.changed

    def changed(self, player_id: str) -> None:
        """The hub opened or closed a connection of ``player_id``."""
        self._changed.add(player_id)
        self._wake.set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="push presence")

    async def stop(self) -> None:
        """After the hub closed every connection: one last report says so (best effort;
        otherwise the lease runs out)."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), STOP_SECONDS)

    async def flush(self) -> None:
        """One report: the players changed since the last one, and the lease."""
        names = list(self._changed)[:MAX_PLAYERS_PER_REPORT]
        self._changed.difference_update(names)
        players = {name: self.hub.connections_of(name) for name in names}
        try:
            await self._call(
                "battle",
                "push_presence",
                replica_id=self.replica_id,
                players=players,
                lease_seconds=self.lease_seconds,
            )
        except BaseException:
            self._changed.update(names)  # sent again with the counts of that moment
            raise
        self.reports += 1
        if self._changed:
            self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.heartbeat_seconds)
            self._wake.clear()
            if self._stopping:
                return
            try:
                await self.flush()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("push presence: report failed; retrying", exc_info=True)
                await asyncio.sleep(RETRY_SECONDS)
                self._wake.set()
