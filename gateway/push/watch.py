"""How far this replica has read the push stream, measured with ticks of its own.

A replica publishes a tick (its replica id and a sequence number) into the push stream
every ``lease_seconds / 4`` and notes when it sent each one. When it reads one of its
own ticks back, it has read everything that reached the stream before that tick was
sent: a stream is one log, read in order. ``caught_up_at`` is the send time of the
newest own tick read back, on this process's monotonic clock; the player leases trust
a long lease only while it is recent (gateway/players.py). Ticks of other replicas, or
of this replica's earlier process, are read and ignored.
"""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict
from collections.abc import Callable

TICK = "deckyard.tick"  # the message type of a tick
REVOCATION = "deckyard.revocation"  # a gateway's notice that an account was locked
MAX_UNREAD_TICKS = 256  # a tick never read back (published during an outage) is dropped


class StreamWatch:
    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.replica = uuid.uuid4().hex
        self._now = now
        self._sent: OrderedDict[int, float] = OrderedDict()
        self._sequence = 0
        self.caught_up_at: float | None = None

    def lag(self) -> float | None:
        """Seconds since the newest own tick read back was sent (None: none yet)."""
        return None if self.caught_up_at is None else self._now() - self.caught_up_at

    def next_tick(self) -> dict[str, object]:
        """The body of a tick about to be published (its send time noted now)."""
        self._sequence += 1
        self._sent[self._sequence] = self._now()
        while len(self._sent) > MAX_UNREAD_TICKS:
            self._sent.popitem(last=False)
        return {"replica": self.replica, "sequence": self._sequence}

    def read_tick(self, body: dict[str, object]) -> bool:
        """A tick read from the stream; True when it was one of ours (caught up)."""
        sequence = body.get("sequence")
        if body.get("replica") != self.replica or not isinstance(sequence, int):
            return False
        sent = self._sent.get(sequence)
        if sent is None:
            return False
        while self._sent and next(iter(self._sent)) <= sequence:  # older ones were lost
            self._sent.popitem(last=False)
        if self.caught_up_at is None or sent > self.caught_up_at:
            self.caught_up_at = sent
        return True
