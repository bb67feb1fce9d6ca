"""The push stream: the one queue the gateways read the players' events from.

A RabbitMQ *stream* (an append-only log that readers do not consume away), bound to
the events exchanges under the types the gateway reads (``EventContract.gateway``).
Every gateway replica reads all of it from its own offset: each sees every event, a
message's offset is the same id on every replica, and a replica that starts (or
restarts after a crash) reads back the last ``PUSH_WINDOW`` and can answer a client
that reconnects with the last id it saw (gateway/push/). The outbox relay declares
the stream and its bindings before publishing such an event (shared/outbox.py), so
none is dropped for want of a gateway that has started.
"""

from __future__ import annotations

from datetime import timedelta

PUSH_QUEUE = "deckyard.push"
PUSH_WINDOW = timedelta(minutes=15)  # ours: how far back a reconnecting client is served
PUSH_QUEUE_ARGUMENTS = {
    "x-queue-type": "stream",
    "x-max-age": f"{int(PUSH_WINDOW.total_seconds() // 60) * 2}m",  # kept twice the window
    "x-stream-max-segment-size-bytes": 8_000_000,  # age is enforced per segment
}
