"""Event handlers that neither drop nor spin on a failure: retry with backoff, then park.

nameko's ``@event_handler`` acknowledges and forgets a message whose handler
raised; with ``requeue_on_error=True`` it puts it straight back at the head of
the queue instead, so a handler that keeps failing spins as fast as the broker
delivers. ``reliable_event_handler`` does neither:

* a failure re-publishes the message to a delay queue of the consumer
  (``<queue>.retry.<n>``, a per-queue TTL) that dead-letters it back into the
  consumer's queue once the delay has passed: 1 s, 5 s, 30 s, 2 min, 10 min
  by default (``EVENT_RETRY_DELAYS_MS``), the attempt count in a header;
* after the last delay, or at once for a message that can never be processed
  (:class:`UnprocessableMessage`: it does not match its contract), it is parked
  in ``<queue>.dead`` with the error, where ``deckyard dead-letters`` lists and
  replays it;
* only once the copy is confirmed by the broker is the original acknowledged;
  if the broker refuses, the original is requeued (nothing is lost).

Consumers are idempotent (``processed_messages``), so a retry that races a
success changes nothing.

With ``QUORUM_QUEUES=1`` (shared/queues.py) these queues are quorum queues, and the
broker counts what this code cannot: a delivery that never reaches
``handle_message_processed`` (the consumer died with the message, its connection
broke, the set-aside failed and the message was requeued). After ``DELIVERY_LIMIT``
such deliveries the broker dead-letters the message into ``<queue>.dead`` itself.
The attempt count above stays ours: a message set aside in a delay queue comes back
as a new message, whose count the broker starts again (docs/reliability.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from kombu.connection import Connection
from kombu.entity import Exchange, Queue
from nameko.amqp.publish import Publisher
from nameko.constants import AMQP_URI_CONFIG_KEY
from nameko.events import EventHandler

from shared.events import UnprocessableMessage
from shared.metrics import EVENTS_PARKED, EVENTS_RETRIED
from shared.queues import (
    consumer_queue_arguments,
    durable_queue_arguments,
    make_quorum,
    quorum_enabled,
)

__all__ = ["UnprocessableMessage", "reliable_event_handler"]

log = logging.getLogger(__name__)

ATTEMPTS_HEADER = "x-deckyard-attempts"
ERROR_HEADER = "x-deckyard-error"
FAILED_AT_HEADER = "x-deckyard-failed-at"
ORIGIN_HEADER = "x-deckyard-origin-queue"
# Set by the broker, never carried over: a quorum queue counts its own deliveries.
BROKER_HEADERS = ("x-death", "x-delivery-count")
DEFAULT_RETRY_DELAYS_MS: tuple[int, ...] = (1_000, 5_000, 30_000, 120_000, 600_000)  # ours
DEFAULT_EXCHANGE = Exchange("", type="direct")


def retry_queue(queue_name: str, attempt: int, delay_ms: int, quorum: bool = False) -> Queue:
    name = f"{queue_name}.retry.{attempt}"
    return Queue(
        name,
        exchange=DEFAULT_EXCHANGE,
        routing_key=name,
        durable=True,
        queue_arguments={
            **durable_queue_arguments(quorum),
            "x-message-ttl": delay_ms,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": queue_name,
        },
    )


def dead_letter_queue(queue_name: str, quorum: bool = False) -> Queue:
    name = f"{queue_name}.dead"
    return Queue(
        name,
        exchange=DEFAULT_EXCHANGE,
        routing_key=name,
        durable=True,
        queue_arguments=durable_queue_arguments(quorum),
    )


def _error_text(exc_info: Any) -> str:
    exc_type, exc, _ = exc_info
    return f"{exc_type.__name__}: {exc}"[:500]


class ReliableEventHandler(EventHandler):  # type: ignore[misc]
    def __init__(self, source_service: str, event_type: str, **kwargs: Any) -> None:
        kwargs.pop("requeue_on_error", None)
        super().__init__(source_service, event_type, requeue_on_error=False, **kwargs)

    def setup(self) -> None:
        super().setup()
        config = self.container.config
        self.quorum = quorum_enabled(config)
        make_quorum(self.queue, consumer_queue_arguments(self.queue.name, self.quorum))
        if self.quorum:
            self._declare_dead_letter_queue(config[AMQP_URI_CONFIG_KEY])
        self.delays: Sequence[int] = tuple(
            config.get("EVENT_RETRY_DELAYS_MS", DEFAULT_RETRY_DELAYS_MS)
        )
        self.republisher = Publisher(
            config[AMQP_URI_CONFIG_KEY], use_confirms=True, serializer="json"
        )

    def _declare_dead_letter_queue(self, amqp_uri: str) -> None:
        """Where the broker dead-letters a message past its delivery limit: it must exist
        before that happens (a message that cannot be dead-lettered yet waits in the queue).
        If the broker is away now, the first message this handler parks declares it."""
        try:
            with Connection(amqp_uri, connect_timeout=5) as conn:
                dead_letter_queue(self.queue.name, quorum=True)(conn.default_channel).declare()
        except Exception as exc:
            log.warning("could not declare %s.dead yet: %s", self.queue.name, exc)

    def handle_message_processed(
        self, message: Any, result: Any = None, exc_info: Any = None
    ) -> None:
        if exc_info is None:
            self.queue_consumer.ack_message(message)
            return
        attempts = int(message.headers.get(ATTEMPTS_HEADER, 0)) + 1
        hopeless = issubclass(exc_info[0], UnprocessableMessage)
        parking = hopeless or attempts > len(self.delays)
        if parking:
            target = dead_letter_queue(self.queue.name, self.quorum)
            log.error(
                "parking a %s message in %s after %d attempt(s): %s",
                self.event_type,
                target.name,
                attempts,
                _error_text(exc_info),
            )
        else:
            delay = self.delays[attempts - 1]
            target = retry_queue(self.queue.name, attempts, delay, self.quorum)
            log.warning(
                "%s failed (attempt %d), retrying in %d ms: %s",
                self.event_type,
                attempts,
                delay,
                _error_text(exc_info),
            )
        headers = {
            **{k: v for k, v in message.headers.items() if not k.startswith(BROKER_HEADERS)},
            ATTEMPTS_HEADER: attempts,
            ERROR_HEADER: _error_text(exc_info),
            FAILED_AT_HEADER: datetime.now(UTC).isoformat(),
            ORIGIN_HEADER: self.queue.name,
        }
        try:
            self.republisher.publish(
                message.payload,
                exchange=DEFAULT_EXCHANGE,
                routing_key=target.name,
                headers=headers,
                declare=[target],
                mandatory=True,
            )
        except Exception:
            log.exception("could not set the failed message aside; requeueing it")
            self.queue_consumer.requeue_message(message)
            return
        (EVENTS_PARKED if parking else EVENTS_RETRIED).labels(self.queue.name).inc()
        self.queue_consumer.ack_message(message)


reliable_event_handler = ReliableEventHandler.decorator
