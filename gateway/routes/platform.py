"""The platform's own routes: liveness, readiness, the OpenAPI document, dev keys,
and the internal status of every service (on the status port only)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.apidocs import docs_page
from gateway.devauth import dev_jwks
from gateway.http import RouteDoc, api, internal
from gateway.openapi import build_spec
from gateway.routes.platform_schemas import HealthSchema, ReadySchema, StatusSchema
from gateway.rpc import NamekoRpc
from shared.config import SERVICE_NAMES, Settings
from shared.errors import NotFound

STATUS_TIMEOUT_SECONDS = 2.0


def ready_body(broker_ok: bool) -> dict[str, Any]:
    return {"ready": broker_ok, "broker": "ok" if broker_ok else "unavailable"}


def status_body(
    broker_ok: bool, results: Mapping[str, Any], services: Iterable[str]
) -> dict[str, Any]:
    """The all-services view: each service's ``health`` RPC answer (``unknown``
    without the broker, ``unavailable`` for an error, a timeout or a bad answer)."""
    states: dict[str, str] = {}
    for service in services:
        if not broker_ok:
            states[service] = "unknown"
            continue
        result = results.get(service)
        ok = isinstance(result, dict) and result.get("ok") is True
        states[service] = "ok" if ok else "unavailable"
    return {
        "ok": broker_ok and all(state == "ok" for state in states.values()),
        "broker": "ok" if broker_ok else "unavailable",
        "services": states,
    }


class PlatformRoutes:
    settings: Settings
    services: NamekoRpc

    def broker_ready(self) -> bool:
        raise NotImplementedError  # the Gateway's: its own broker link

    @api("GET", "/health", RouteDoc("Liveness: the gateway process answers", HealthSchema))
    async def health(self, request: Request) -> dict[str, str]:
        """``GET /health`` -> ``{"status": "alive"}``"""
        return {"status": "alive"}

    @api(
        "GET",
        "/ready",
        RouteDoc(
            "Readiness: this gateway's own link to the broker is open",
            ReadySchema,
            also=(503,),
        ),
    )
    async def ready(self, request: Request) -> tuple[int, dict[str, Any]]:
        """``GET /ready`` -> ``{"ready": true, "broker": "ok"}`` (503 and ``false``
        without the broker). Only this process's own link: a service that is down does
        not take the gateway out of its Service (``/internal/status`` on the status
        port shows every service)."""
        broker_ok = self.broker_ready()
        return (200 if broker_ok else 503), ready_body(broker_ok)

    @internal(
        "GET",
        "/internal/status",
        RouteDoc("Every service's health, for operators (status port only)", StatusSchema),
    )
    async def status(self, request: Request) -> tuple[int, dict[str, Any]]:
        """``GET /internal/status`` (status port) -> ``{"ok": false, "broker": "ok",
        "services": {"accounts": "ok", "battle": "unavailable", ...}}``"""
        broker_ok = self.broker_ready()
        results: dict[str, Any] = {}
        if broker_ok:
            results = await self.services.call_each(SERVICE_NAMES, "health", STATUS_TIMEOUT_SECONDS)
        body = status_body(broker_ok, results, SERVICE_NAMES)
        return (200 if body["ok"] else 503), body

    @api(
        "GET",
        "/openapi.json",
        RouteDoc("This API's OpenAPI 3.1 document", operation_id="getOpenApiDocument"),
    )
    async def openapi(self, request: Request) -> dict[str, Any]:
        """``GET /openapi.json`` -> the OpenAPI 3.1 document of every route"""
        return build_spec(type(self), servers=self.settings.api_servers)

    @api(
        "GET",
        "/docs",
        RouteDoc(
            "The API reference (Swagger UI on /openapi.json, served from this host)",
            content_type="text/html",
        ),
    )
    async def docs(self, request: Request) -> Response:
        """``GET /docs`` -> an HTML page: Swagger UI, or the plain list of every route
        where the client was built without it (gateway/apidocs.py)"""
        spec = build_spec(type(self), servers=self.settings.api_servers)
        return Response(docs_page(spec, self.settings.web_root), media_type="text/html")

    @api("GET", "/dev/jwks.json", RouteDoc("Development issuer keys (DEV_AUTH=1 only)"))
    async def dev_jwks(self, request: Request) -> Response:
        """``GET /dev/jwks.json`` -> ``{"keys": [...]}``, or 404 unless DEV_AUTH=1"""
        if not self.settings.dev_auth:
            raise NotFound("route_not_found", "There is no such route.")
        return Response(json.dumps(dev_jwks()), media_type="application/json")
