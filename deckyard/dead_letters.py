"""``deckyard dead-letters list | replay``: the events no handler could process.

A reliable event handler (``shared/reliable_events.py``) parks a message in
``<consumer queue>.dead`` after its last retry. An operator lists what is
parked, fixes the cause (a bug, bad data), then replays: each message goes
back to the queue it came from with its attempt count reset, and is
processed again (consumers are idempotent, so a replay can never double).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from amqp.exceptions import NotFound
from kombu.connection import Connection
from kombu.entity import Queue

from shared.events import CONTRACTS
from shared.reliable_events import (
    ATTEMPTS_HEADER,
    BROKER_HEADERS,
    DEFAULT_EXCHANGE,
    ERROR_HEADER,
    FAILED_AT_HEADER,
    ORIGIN_HEADER,
    dead_letter_queue,
)


@dataclass(frozen=True)
class Parked:
    queue: str
    event_type: str | None
    event_id: str | None
    attempts: int
    failed_at: str | None
    error: str | None


def consumer_queues() -> list[str]:
    """Every consumer queue the event contracts name."""
    return sorted({q for c in CONTRACTS.values() for q in c.consumer_queues()})


def _dead_queue_on(conn: Connection, origin: str) -> Queue | None:
    """The bound dead-letter queue of ``origin``, or None if it was never created."""
    queue: Queue = dead_letter_queue(origin)(conn.channel())  # type: ignore[no-untyped-call]
    try:
        queue.queue_declare(passive=True)  # type: ignore[no-untyped-call]
    except NotFound:  # nothing was ever parked here (the error closed that channel only)
        return None
    return queue


def _drain(conn: Connection, origin: str) -> Iterator[Any]:
    queue = _dead_queue_on(conn, origin)
    if queue is None:
        return
    while (message := queue.get(no_ack=False)) is not None:  # type: ignore[no-untyped-call]
        yield message


def _describe(origin: str, message: Any) -> Parked:
    payload = message.payload if isinstance(message.payload, dict) else {}
    headers = message.headers
    error = headers.get(ERROR_HEADER)
    deaths = headers.get("x-death") or []
    if deaths and deaths[0].get("reason") == "delivery_limit":  # the newest death first
        # Parked by the broker, not by its handler (shared/queues.py, DELIVERY_LIMIT).
        error = "delivered too many times without being settled (the broker's delivery limit)"
    return Parked(
        queue=origin,
        event_type=payload.get("type"),
        event_id=payload.get("event_id"),
        attempts=int(headers.get(ATTEMPTS_HEADER, 0)),
        failed_at=headers.get(FAILED_AT_HEADER),
        error=error,
    )


def list_parked(amqp_uri: str, queues: list[str] | None = None) -> list[Parked]:
    """What is parked, without removing it (each message is requeued after reading)."""
    found: list[Parked] = []
    with Connection(amqp_uri) as conn:  # type: ignore[no-untyped-call]
        for origin in queues or consumer_queues():
            messages = list(_drain(conn, origin))
            found.extend(_describe(origin, m) for m in messages)
            for message in messages:
                message.requeue()
    return found


def replay(amqp_uri: str, queues: list[str] | None = None, event_id: str | None = None) -> int:
    """Send parked messages back to their consumer queue; returns how many."""
    replayed = 0
    with Connection(amqp_uri) as conn:  # type: ignore[no-untyped-call]
        producer = conn.Producer(serializer="json")
        for origin in queues or consumer_queues():
            kept = []
            for message in _drain(conn, origin):
                payload = message.payload
                if event_id is not None and (
                    not isinstance(payload, dict) or payload.get("event_id") != event_id
                ):
                    kept.append(message)
                    continue
                headers = {
                    k: v
                    for k, v in message.headers.items()
                    if k not in (ATTEMPTS_HEADER, ERROR_HEADER, FAILED_AT_HEADER, ORIGIN_HEADER)
                    and not k.startswith(BROKER_HEADERS)
                }
                producer.publish(
                    payload,
                    exchange=DEFAULT_EXCHANGE,
                    routing_key=origin,
                    headers=headers,
                    delivery_mode=2,
                    retry=True,
                )
                message.ack()
                replayed += 1
            for message in kept:
                message.requeue()
    return replayed
