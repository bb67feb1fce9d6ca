"""Health endpoints every service carries, as a mixin of nameko entrypoints.

``health`` over RPC tells the gateway's ``/ready`` that the service answers and
reaches its database. ``GET /health`` (liveness: the process serves HTTP) and
``GET /ready`` (its database answers) on the service's health port serve the
Kubernetes probes, each for its own replica.
"""

from __future__ import annotations

import json
from typing import Any

from shared.db import Database
from shared.rpc import rpc
from shared.web_server import http


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


class HealthEndpoints:
    name: str
    db: Database

    @rpc
    def health(self) -> dict[str, Any]:
        return health_report(self.name, self.db)

    @http("GET", "/health")
    def http_health(self, request: Any) -> tuple[int, dict[str, str], str]:
        return 200, {"Content-Type": "application/json"}, json.dumps({"status": "alive"})

    @http("GET", "/ready")
    def http_ready(self, request: Any) -> tuple[int, dict[str, str], str]:
        report = health_report(self.name, self.db)
        status = 200 if report["ok"] else 503
        return status, {"Content-Type": "application/json"}, json.dumps(report)
