"""The platform's own routes: liveness, readiness, the OpenAPI document, dev keys."""

from __future__ import annotations

import json
from typing import Any

from kombu.connection import Connection
from werkzeug.wrappers import Request, Response

from gateway.devauth import dev_jwks
from gateway.entrypoints import RouteDoc, api
from gateway.openapi import build_spec, render_docs_page
from gateway.routes.platform_schemas import HealthSchema, ReadySchema
from gateway.rpc import Services
from shared.config import SERVICE_NAMES, Settings
from shared.errors import NotFound

READY_TIMEOUT_SECONDS = 2.0


class PlatformRoutes:
    settings: Settings
    services: Services

    @api("GET", "/health", RouteDoc("Liveness: the gateway process answers", HealthSchema))
    def health(self, request: Request) -> dict[str, str]:
        """``GET /health`` -> ``{"status": "alive"}``"""
        return {"status": "alive"}

    @api(
        "GET",
        "/ready",
        RouteDoc("Readiness: the broker and every service answer", ReadySchema, also=(503,)),
    )
    def ready(self, request: Request) -> tuple[int, dict[str, Any]]:
        """``GET /ready`` -> ``{"ready": true, "broker": "ok", "services": {"accounts": "ok"}}``"""
        broker_ok = self._broker_reachable()
        services: dict[str, str] = {}
        if broker_ok:
            results = self.services.call_each(SERVICE_NAMES, "health", READY_TIMEOUT_SECONDS)
            for service, result in results.items():
                ok = isinstance(result, dict) and result.get("ok") is True
                services[service] = "ok" if ok else "unavailable"
        else:
            services = dict.fromkeys(SERVICE_NAMES, "unknown")
        ready = broker_ok and all(state == "ok" for state in services.values())
        body = {
            "ready": ready,
            "broker": "ok" if broker_ok else "unavailable",
            "services": services,
        }
        return (200 if ready else 503), body

    def _broker_reachable(self) -> bool:
        try:
            broker = Connection(self.settings.amqp_uri, connect_timeout=READY_TIMEOUT_SECONDS)  # type: ignore[no-untyped-call]
            with broker as conn:
                conn.ensure_connection(max_retries=1)
            return True
        except Exception:
            return False

    @api("GET", "/openapi.json", RouteDoc("This API's OpenAPI 3.1 document"))
    def openapi(self, request: Request) -> dict[str, Any]:
        """``GET /openapi.json`` -> the OpenAPI 3.1 document of every route"""
        return build_spec(type(self))

    @api("GET", "/docs", RouteDoc("A browsable list of the routes", content_type="text/html"))
    def docs(self, request: Request) -> Response:
        """``GET /docs`` -> an HTML page listing every route"""
        return Response(render_docs_page(build_spec(type(self))), content_type="text/html")

    @api("GET", "/dev/jwks.json", RouteDoc("Development issuer keys (DEV_AUTH=1 only)"))
    def dev_jwks(self, request: Request) -> Response:
        """``GET /dev/jwks.json`` -> ``{"keys": [...]}``, or 404 unless DEV_AUTH=1"""
        if not self.settings.dev_auth:
            raise NotFound("route_not_found", "There is no such route.")
        return Response(json.dumps(dev_jwks()), content_type="application/json")
