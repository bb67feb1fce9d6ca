"""Health endpoints every service carries, as a mixin of nameko entrypoints.

``GET /health`` (liveness: the process serves HTTP) and ``GET /ready`` (readiness:
its own database and its own broker link answer) on the service's health port serve
the Kubernetes probes, each for its own replica. Readiness never asks another
process: one failing service must not take the others out of their Services.

``health`` over RPC (its database answers) is what the gateway's internal status
endpoint asks of every service (``GET /internal/status`` on the gateway's status
port, docs/deploy.md).
"""

from __future__ import annotations

import json
from typing import Any

import eventlet
from nameko.extensions import DependencyProvider

from shared.config import settings_from_nameko_config
from shared.db import Database
from shared.readiness import DEFAULT_TTL_SECONDS, BrokerLink, CachedCheck
from shared.rpc import rpc
from shared.web_server import http

BROKER_CHECK_TIMEOUT_SECONDS = 2.0


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


class HealthEndpoints:
    name: str
    db: Database
    broker_ready = BrokerReadiness()

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
