"""Prometheus metrics: what every process counts and how it is served.

Every process serves ``GET /metrics`` in Prometheus' text format: the gateway on its
status port (never the API port), each service on its health port. The metrics live in
``prometheus_client``'s default registry, one per process: a nameko service's workers
are green threads of that process, so they all count into the same metrics (no
multiprocess mode is needed), and when several services share a process (``deckyard
run`` of several) every series names its ``service``.

Labels are bounded by the code, never by the traffic: a route's template
(``/quest/attempts/<uuid:attempt_id>``), never its path; a service's method, an event
handler, a consumer or a queue, each a name in the source; a status code; an outcome
(``shared.errors.outcome_of``). docs/operations.md lists every metric and the alerts on them.

Gauges that need the database (the outbox's backlog, battle's matches) are measured by
each service every ``METRICS_INTERVAL_SECONDS`` in a green thread of its own
(shared/health.py, ``ServiceGauges``), not when scraped: a scrape never waits for a
busy connection pool, and a flood of scrapes costs the database nothing.

A labelled counter's series exists from the service's start, at 0, for every label set
the service can know (``count_from_zero``: its consumers' queues, its outbox, the
outcomes; ``measure_inbox``: the consumers its inbox names). A series born at 1 has no
increase to show: ``increase()`` over it is empty, so the first parked event after a
restart would never fire ``DeckyardEventsParked`` and its panel would say "No data".
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from nameko.events import EventHandler
from nameko.extensions import DependencyProvider
from nameko.rpc import Rpc
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from sqlalchemy import func, select, text

from shared.errors import outcome_of
from shared.events import AWAITING_CONSUMERS
from shared.logs import REQUEST_ID

if TYPE_CHECKING:
    from shared.db import Database

# No ``*_created`` series beside every counter and histogram: twice the series, unused.
disable_created_metrics()

# Seconds; from a cached read (a few ms) to the gateway's RPC deadline and beyond.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Seconds from an event's commit to its confirmed publication.
RELAY_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 15.0, 60.0, 300.0, 1800.0)
# The classic text format, which every Prometheus reads (the library's "latest" is 1.0.0).
METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# -- the services (nameko processes) ---------------------------------------------------------

RPC_SERVER_DURATION = Histogram(
    "deckyard_rpc_server_duration_seconds",
    "Time a service took to answer an RPC, its reply included, by method and outcome",
    ["service", "method", "outcome"],
    buckets=LATENCY_BUCKETS,
)
EVENT_HANDLER_DURATION = Histogram(
    "deckyard_event_handler_duration_seconds",
    "Time a service's event handler took, by handler and outcome (error: retried or parked)",
    ["service", "handler", "outcome"],
    buckets=LATENCY_BUCKETS,
)
INBOX_DUPLICATES = Counter(
    "deckyard_inbox_duplicates",
    "Events a consumer received again after applying them once (applied once, ignored)",
    ["consumer"],
)
EVENTS_RETRIED = Counter(
    "deckyard_events_retried",
    "Events whose handler failed, set aside in a delay queue to be tried again",
    ["queue"],
)
EVENTS_PARKED = Counter(
    "deckyard_events_parked",
    "Events parked in <queue>.dead after their last attempt or as unprocessable "
    "(deckyard dead-letters lists and replays them)",
    ["queue"],
)
TRANSACTION_OUTCOMES = ("retried", "gave_up")  # shared/db.py, run_in_transaction
TRANSACTION_CONFLICTS = Counter(
    "deckyard_transaction_conflicts",
    "Units of work PostgreSQL rolled back for a deadlock or a serialization failure: run "
    "again (retried), or answered 503 transaction_conflict after the last attempt (gave_up)",
    ["outcome"],
)
OUTBOX_PUBLISHED = Counter(
    "deckyard_outbox_published",
    "Events the outbox relay published, confirmed by the broker",
    ["service"],
)
OUTBOX_PUBLISH_FAILURES = Counter(
    "deckyard_outbox_publish_failures",
    "Publications of an outbox row that failed (retried at the next round)",
    ["service"],
)
OUTBOX_RELAY_DELAY = Histogram(
    "deckyard_outbox_relay_delay_seconds",
    "Time from an event's commit to its confirmed publication",
    ["service"],
    buckets=RELAY_BUCKETS,
)
OUTBOX_PENDING = Gauge(
    "deckyard_outbox_pending",
    "Events committed in the service's outbox and not yet published (its backlog)",
    ["service"],
)
OUTBOX_OLDEST_AGE = Gauge(
    "deckyard_outbox_oldest_pending_age_seconds",
    "Age of the oldest unpublished outbox event (the relay's lag); 0 when none waits",
    ["service"],
)
DATABASE_UP = Gauge(
    "deckyard_database_up",
    "1 if the service's last measurement reached its database, else 0",
    ["service"],
)
DB_POOL_MAX = Gauge(
    "deckyard_db_pool_max_connections",
    "Connections the service's pool may open (pool size plus overflow)",
    ["service"],
)
DB_POOL_IN_USE = Gauge(
    "deckyard_db_pool_in_use_connections",
    "Connections of the service's pool checked out by workers",
    ["service"],
)
METRICS_MEASURED_AT = Gauge(
    "deckyard_metrics_measured_timestamp_seconds",
    "When the service last measured its database gauges (Unix time)",
    ["service"],
)


def measure_outbox(service: str, database: Database) -> None:
    """The outbox's backlog (rows waiting for the relay; those whose consumers do not
    exist yet are not owed to anyone) and the age of its oldest row."""
    outbox = database.plumbing.outbox
    waiting = [outbox.c.published_at.is_(None)]
    if AWAITING_CONSUMERS:
        waiting.append(outbox.c.routing_key.not_in(AWAITING_CONSUMERS))
    with database.read() as session:
        session.execute(text("SET LOCAL statement_timeout = 5000"))
        count, age = session.execute(
            select(
                func.count(),
                func.extract("epoch", func.now() - func.min(outbox.c.created_at)),
            ).where(*waiting)
        ).one()
    OUTBOX_PENDING.labels(service).set(count)
    OUTBOX_OLDEST_AGE.labels(service).set(max(0.0, float(age or 0.0)))


def count_from_zero(service: str, queues: Iterable[str]) -> None:
    """Every labelled counter a service counts into, at 0 for the label sets it knows
    when it starts: the queues of its event handlers, its outbox, the outcomes."""
    for queue in queues:
        EVENTS_RETRIED.labels(queue)
        EVENTS_PARKED.labels(queue)
    for outcome in TRANSACTION_OUTCOMES:
        TRANSACTION_CONFLICTS.labels(outcome)
    OUTBOX_PUBLISHED.labels(service)
    OUTBOX_PUBLISH_FAILURES.labels(service)


def measure_inbox(service: str, database: Database) -> None:
    """The consumers of the service's inbox at 0 duplicates: a duplicate is of a message
    already applied, so its consumer has a row (names live in the handlers' modules, not
    here). A loose index scan of the primary key: one probe per consumer, never a scan
    of the table."""
    consumer = database.plumbing.processed_messages.c.consumer
    found = select(consumer).order_by(consumer).limit(1).cte("found", recursive=True)
    after = select(consumer).where(consumer > found.c.consumer).order_by(consumer).limit(1)
    found = found.union_all(select(after.scalar_subquery()).where(found.c.consumer.is_not(None)))
    with database.read() as session:
        session.execute(text("SET LOCAL statement_timeout = 5000"))
        names = session.scalars(select(found.c.consumer).where(found.c.consumer.is_not(None)))
        for name in names:
            INBOX_DUPLICATES.labels(name)


def measure_pool(service: str, database: Database) -> None:
    pool: Any = database.engine.pool  # a QueuePool (shared/db.py, make_engine)
    DB_POOL_MAX.labels(service).set(pool.size() + getattr(pool, "_max_overflow", 0))
    DB_POOL_IN_USE.labels(service).set(pool.checkedout())


class WorkerMetrics(DependencyProvider):  # type: ignore[misc]
    """Times every RPC and event-handler worker of the service, by method and outcome,
    and gives the worker its request's id (``REQUEST_ID``, from the call's context) so
    its log lines and the events it writes carry it."""

    def setup(self) -> None:
        self._started: dict[Any, tuple[float, Any]] = {}

    def start(self) -> None:
        # After every extension's setup: an event handler names its queue in its own.
        entrypoints = self.container.entrypoints
        queues = [e.queue.name for e in entrypoints if isinstance(e, EventHandler)]
        count_from_zero(self.container.service_name, queues)

    def worker_setup(self, worker_ctx: Any) -> None:
        request_id = worker_ctx.context_data.get("request_id")
        token = REQUEST_ID.set(str(request_id) if request_id else None)
        self._started[worker_ctx] = (time.perf_counter(), token)

    def worker_result(self, worker_ctx: Any, result: Any = None, exc_info: Any = None) -> None:
        started = self._started.get(worker_ctx)
        if started is None:
            return
        elapsed = time.perf_counter() - started[0]
        outcome = outcome_of(exc_info[1] if exc_info else None)
        entrypoint = worker_ctx.entrypoint
        service = worker_ctx.service_name
        if isinstance(entrypoint, Rpc):
            RPC_SERVER_DURATION.labels(service, entrypoint.method_name, outcome).observe(elapsed)
        elif isinstance(entrypoint, EventHandler):
            EVENT_HANDLER_DURATION.labels(service, entrypoint.method_name, outcome).observe(elapsed)

    def worker_teardown(self, worker_ctx: Any) -> None:
        started = self._started.pop(worker_ctx, None)
        if started is not None:
            REQUEST_ID.reset(started[1])


# -- serving ---------------------------------------------------------------------------------


def exposition(registry: CollectorRegistry = REGISTRY) -> bytes:
    """The registry in Prometheus' text format (``METRICS_CONTENT_TYPE``)."""
    return generate_latest(registry)
