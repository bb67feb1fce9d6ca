"""The outbox relay: publishes committed events to RabbitMQ, with retries.

Rows are taken oldest first with ``FOR UPDATE SKIP LOCKED``, so replicas of a
service share the work without publishing the same row at once. A row is
marked published only after the broker confirmed it (publisher confirms), so
a crash between publish and mark republishes it later: delivery is
at-least-once and consumers are idempotent.

Before publishing, the relay declares the durable queue of every consumer
its contract names (``shared.events``), exactly as nameko's event handler
declares it: an event published before a consumer first started waits in
that consumer's queue instead of being dropped. Publishing is also
*mandatory*, as a net for what the contracts do not know (an unknown event
type): a message no queue receives is refused by the broker and stays
pending, retried next round. A broken connection stops the batch.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from kombu.entity import Exchange, Queue
from nameko.amqp.publish import UndeliverableMessage
from nameko.standalone.events import get_event_exchange
from sqlalchemy import Engine, Table, delete, func, select, update
from sqlalchemy.orm import Session

from shared import tracing
from shared.db import Statement
from shared.events import AWAITING_CONSUMERS, contract_for
from shared.logs import Throttled
from shared.metrics import OUTBOX_PUBLISH_FAILURES, OUTBOX_PUBLISHED, OUTBOX_RELAY_DELAY
from shared.plumbing_tables import PlumbingTables
from shared.push import PUSH_QUEUE, PUSH_QUEUE_ARGUMENTS
from shared.queues import consumer_queue_arguments

log = logging.getLogger(__name__)

PUBLISHED_RETENTION = timedelta(days=7)  # assumed: long enough to investigate a delivery


class Publisher(Protocol):
    def publish(self, payload: Any, **kwargs: Any) -> None: ...


def nameko_publisher(amqp_uri: str) -> Publisher:
    """A confirming, persistent publisher (nameko's, which pools connections)."""
    from nameko.amqp.publish import Publisher as NamekoPublisher

    publisher: Publisher = NamekoPublisher(amqp_uri, use_confirms=True, serializer="json")
    return publisher


def _exchange(source_service: str) -> Exchange:
    # The same declaration nameko's EventDispatcher and event_handler use.
    exchange: Exchange = get_event_exchange(source_service, {})
    return exchange


def declarations(
    exchange_name: str, routing_key: str, quorum: bool = False
) -> list[Exchange | Queue]:
    """The exchange and the queues of the contract's consumers, as their handlers declare
    them (``quorum``: as quorum queues, shared/queues.py; the arguments must match)."""
    exchange = _exchange(exchange_name.removesuffix(".events"))
    contract = contract_for(exchange_name, routing_key)
    queues = []
    if contract is not None:
        queues = [
            Queue(
                name,
                exchange=exchange,
                routing_key=routing_key,
                durable=True,
                auto_delete=False,
                exclusive=False,
                queue_arguments=consumer_queue_arguments(name, quorum),
            )
            for name in contract.consumer_queues()
        ]
        if contract.gateway:  # the gateways' push stream keeps it (shared/push.py)
            queues.append(
                Queue(
                    PUSH_QUEUE,
                    exchange=exchange,
                    routing_key=routing_key,
                    durable=True,
                    auto_delete=False,
                    exclusive=False,
                    queue_arguments=PUSH_QUEUE_ARGUMENTS,
                )
            )
    return [exchange, *queues]


def forget_player_events(session: Session, outbox: Table, player_id: uuid.UUID) -> int:
    """Delete a service's outbox rows about a player (``data.player_id``), published or not.

    For account deletion, in the purge's transaction: a published row would keep
    the player's id for a week; an unpublished one is owed to nobody any more (its
    consumers purge the player too). Returns how many rows went.
    """
    about_player = outbox.c.payload["data"]["player_id"].astext == str(player_id)
    deleted = session.execute(delete(outbox).where(about_player).returning(outbox.c.seq)).all()
    return len(deleted)


def player_events_statement(outbox: Table, player_id: uuid.UUID) -> Statement:
    """``forget_player_events`` as SQL, for a purge that sends its deletes in one
    pipeline (``shared.db.pipelined``)."""
    name = outbox.name.replace('"', '""')
    return (
        f"DELETE FROM \"{name}\" WHERE payload -> 'data' ->> 'player_id' = %s",
        (str(player_id),),
    )


class OutboxRelay:
    def __init__(
        self,
        engine: Engine,
        plumbing: PlumbingTables,
        publisher: Publisher,
        batch_size: int = 100,
        service: str = "",
        quorum: bool = False,
    ) -> None:
        self._engine = engine
        self._outbox = plumbing.outbox
        self._publisher = publisher
        self._batch_size = batch_size
        self._service = service
        self._quorum = quorum  # the consumers' queues are quorum queues (QUORUM_QUEUES)
        # While the broker is away every round's first publish fails: one line per 30 s.
        self._publish_failures = Throttled(log, f"{service or 'outbox'} relay publish")

    def relay_once(self) -> int:
        """Publish one batch of pending events; return how many were published."""
        outbox = self._outbox
        published = 0
        with self._engine.begin() as conn:
            rows = conn.execute(
                select(
                    outbox.c.seq,
                    outbox.c.event_id,
                    outbox.c.exchange,
                    outbox.c.routing_key,
                    outbox.c.payload,
                    outbox.c.created_at,
                )
                .where(
                    outbox.c.published_at.is_(None),
                    # An event no service consumes yet waits here, untried, until one does.
                    outbox.c.routing_key.not_in(AWAITING_CONSUMERS),
                )
                .order_by(outbox.c.seq)
                .limit(self._batch_size)
                .with_for_update(skip_locked=True)
            ).all()
            for row in rows:
                declare = declarations(row.exchange, row.routing_key, self._quorum)
                # The request that caused the event is its consumers' context too.
                request_id = row.payload.get("request_id")
                headers = {"nameko.request_id": request_id} if request_id else {}
                try:
                    with tracing.publish_span(self._service, row.routing_key, row.payload, headers):
                        self._publisher.publish(
                            row.payload,
                            exchange=declare[0],
                            declare=declare,
                            routing_key=row.routing_key,
                            mandatory=True,
                            message_id=str(row.event_id),
                            headers=headers,
                        )
                except UndeliverableMessage:
                    OUTBOX_PUBLISH_FAILURES.labels(self._service).inc()
                    self._record_failure(conn, row.seq, "no queue is bound for this event yet")
                    continue
                except Exception as exc:  # the broker is away: retry the rest later
                    OUTBOX_PUBLISH_FAILURES.labels(self._service).inc()
                    self._publish_failures.failed(exc)
                    self._record_failure(conn, row.seq, str(exc))
                    break
                self._publish_failures.succeeded()
                conn.execute(
                    update(outbox)
                    .where(outbox.c.seq == row.seq)
                    .values(published_at=func.now(), attempts=outbox.c.attempts + 1)
                )
                published += 1
                OUTBOX_PUBLISHED.labels(self._service).inc()
                delay = (datetime.now(UTC) - row.created_at).total_seconds()
                OUTBOX_RELAY_DELAY.labels(self._service).observe(max(0.0, delay))
        return published

    def _record_failure(self, conn: Any, seq: int, error: str) -> None:
        outbox = self._outbox
        conn.execute(
            update(outbox)
            .where(outbox.c.seq == seq)
            .values(attempts=outbox.c.attempts + 1, last_error=error[:1000])
        )

    def relay_all(self) -> int:
        total = 0
        while True:
            count = self.relay_once()
            total += count
            if count < self._batch_size:  # a short batch: nothing more is ready now
                return total

    def pending(self) -> int:
        with self._engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(self._outbox.c.published_at.is_(None))
                ).scalar_one()
            )

    def purge_published(self) -> int:
        outbox = self._outbox
        with self._engine.begin() as conn:
            result = conn.execute(
                delete(outbox).where(outbox.c.published_at < func.now() - PUBLISHED_RETENTION)
            )
            return int(result.rowcount or 0)


class RelayLoop:
    """Runs a relay in a green thread: at once when woken, else every interval."""

    def __init__(
        self,
        relay: OutboxRelay,
        poll_interval: float = 1.0,
        purge_every: int = 3600,
    ) -> None:
        import eventlet.event

        self._relay = relay
        self._poll_interval = poll_interval
        self._purge_every = purge_every
        self._wakeup = eventlet.event.Event()
        self._running = False
        self._thread: Any = None

    def wake(self) -> None:
        if not self._wakeup.ready():
            self._wakeup.send(True)

    def start(self) -> None:
        import eventlet

        self._running = True
        self._thread = eventlet.spawn(self._run)

    def stop(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.kill()
            self._thread = None

    def _run(self) -> None:
        import eventlet
        import eventlet.event

        rounds = 0
        # While the database is down every round fails: one line per 30 s, not thousands.
        failures = Throttled(log, "outbox relay round")
        while self._running:
            try:
                self._relay.relay_all()
                rounds += 1
                if rounds % self._purge_every == 0:
                    self._relay.purge_published()
                failures.succeeded()
            except Exception as exc:  # keep relaying: the database may come back
                failures.failed(exc)
            with eventlet.Timeout(self._poll_interval, False):
                self._wakeup.wait()
            self._wakeup = eventlet.event.Event()
