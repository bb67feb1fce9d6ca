"""Health endpoints every service carries, as a mixin of nameko entrypoints.

``GET /health`` (liveness: the process serves HTTP) and ``GET /ready`` (readiness:
its own database and its own broker link answer) on the service's health port serve
the Kubernetes probes, each for its own replica. Readiness never asks another
process: one failing service must not take the others out of their Services.

``health`` over RPC (its database answers) is what the gateway's internal status
endpoint asks of every service (``GET /internal/status`` on the gateway's status
port, docs/deploy.md).

``GET /metrics`` on the same port is the process's Prometheus metrics (shared/metrics.py):
every worker timed (``WorkerMetrics``), and the gauges that need the database measured
every ``METRICS_INTERVAL_SECONDS`` (``ServiceGauges``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import eventlet
from nameko.extensions import DependencyProvider

from shared.config import settings_from_nameko_config
from shared.db import Database
from shared.dependencies import DatabaseProvider
from shared.logs import Throttled
from shared.metrics import (
    DATABASE_UP,
    METRICS_CONTENT_TYPE,
    METRICS_MEASURED_AT,
    WorkerMetrics,
    exposition,
    measure_inbox,
    measure_outbox,
    measure_pool,
)
from shared.readiness import DEFAULT_TTL_SECONDS, BrokerLink, CachedCheck
from shared.rpc import rpc
from shared.web_server import http
from shared.worker_logs import WorkerLogs
from shared.worker_tracing import WorkerTracing

log = logging.getLogger(__name__)

BROKER_CHECK_TIMEOUT_SECONDS = 2.0
DEFAULT_METRICS_INTERVAL_SECONDS = 15.0  # ours: one typical scrape interval

Measure = Callable[[str, Database], None]


def health_report(service: str, database: Database) -> dict[str, Any]:
    try:
        database_ok = database.ping()
    except Exception:  # the report says so; the reason goes to the logs, not the wire
        database_ok = False
    return {
        "service": service,
        "database": "ok" if database_ok else "unavailable",
        "ok": database_ok,
    }


class BrokerReadiness(DependencyProvider):  # type: ignore[misc]
    """Whether this container's process reaches the broker: one connection per
    container, checked at most once a second (shared/readiness.py), so a flood of
    ``/ready`` calls opens no connection and costs the broker nothing."""

    def setup(self) -> None:
        settings = settings_from_nameko_config(self.container.config)
        self.link = BrokerLink(settings.amqp_uri, BROKER_CHECK_TIMEOUT_SECONDS)
        ttl = float(self.container.config.get("READY_CACHE_SECONDS", DEFAULT_TTL_SECONDS))
        self.check = CachedCheck(self._check_in_time, ttl)

    def _check_in_time(self) -> bool:
        try:
            with eventlet.Timeout(BROKER_CHECK_TIMEOUT_SECONDS):
                return self.link.check()
        except eventlet.Timeout:  # a broker that stopped answering on an open connection
            self.link.drop()
            return False

    def stop(self) -> None:
        self.link.drop()

    def kill(self) -> None:
        self.link.drop()

    def get_dependency(self, worker_ctx: Any) -> CachedCheck:
        return self.check


class ServiceGauges(DependencyProvider):  # type: ignore[misc]
    """Measures the gauges that need the service's database every
    ``METRICS_INTERVAL_SECONDS``, in a green thread of the container: the connection
    pool, the outbox and the inbox's consumers (always), and the service's own
    ``measures``. A database that is away sets ``deckyard_database_up`` to 0 and is
    logged once per interval."""

    def __init__(self, *measures: Measure) -> None:
        always = (measure_pool, measure_outbox, measure_inbox)
        self.measures: tuple[Measure, ...] = (*always, *measures)

    def setup(self) -> None:
        config = self.container.config
        self.interval = float(
            config.get("METRICS_INTERVAL_SECONDS", DEFAULT_METRICS_INTERVAL_SECONDS)
        )
        self.service = str(self.container.service_name)
        self.failures = Throttled(log, f"{self.service} metrics", interval=max(30.0, self.interval))
        self._thread: Any = None

    def start(self) -> None:
        providers = [d for d in self.container.dependencies if isinstance(d, DatabaseProvider)]
        if providers:  # none when a test replaced the database
            # Its own green thread, ended by stop() (a managed one would be killed with a
            # warning at every stop); _run lets no exception out.
            self._thread = eventlet.spawn(self._run, providers[0])

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.kill()

    def kill(self) -> None:
        self.stop()

    def _run(self, provider: DatabaseProvider) -> None:
        while True:
            if provider.database is not None:
                self.measure(provider.database)
            eventlet.sleep(self.interval)

    def measure(self, database: Database) -> None:
        try:
            for measure in self.measures:
                measure(self.service, database)
        except Exception as exc:  # the database is away (or slow): say so, keep measuring
            DATABASE_UP.labels(self.service).set(0)
            self.failures.failed(exc)
            return
        DATABASE_UP.labels(self.service).set(1)
        METRICS_MEASURED_AT.labels(self.service).set(time.time())
        self.failures.succeeded()


class HealthEndpoints:
    name: str
    db: Database
    broker_ready = BrokerReadiness()
    worker_metrics = WorkerMetrics()
    worker_tracing = WorkerTracing()  # a span per RPC and event, with OTEL_EXPORTER_OTLP_ENDPOINT
    worker_logs = WorkerLogs()  # each worker's lines name its service; failing timers throttled
    # A service that measures more declares its own: ServiceGauges(measure_matches).
    service_gauges = ServiceGauges()

    @rpc
    def health(self) -> dict[str, Any]:
        return health_report(self.name, self.db)

    @http("GET", "/health")
    def http_health(self, request: Any) -> tuple[int, dict[str, str], str]:
        return 200, {"Content-Type": "application/json"}, json.dumps({"status": "alive"})

    @http("GET", "/ready")
    def http_ready(self, request: Any) -> tuple[int, dict[str, str], str]:
        report = health_report(self.name, self.db)
        broker_ok = self.broker_ready()
        report["broker"] = "ok" if broker_ok else "unavailable"
        report["ok"] = report["ok"] and broker_ok
        status = 200 if report["ok"] else 503
        return status, {"Content-Type": "application/json"}, json.dumps(report)

    @http("GET", "/metrics")
    def http_metrics(self, request: Any) -> tuple[int, dict[str, str], str]:
        # nameko's web entrypoint takes a str body only
        return 200, {"Content-Type": METRICS_CONTENT_TYPE}, exposition().decode()
