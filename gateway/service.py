"""The gateway nameko service: the public HTTP routes.

Each route authenticates, calls one service over RPC and shapes the answer;
rules live in the services.
"""

from __future__ import annotations

import json
from typing import Any

from kombu.connection import Connection
from werkzeug.wrappers import Request, Response

from gateway.auth import Identity, bearer_token
from gateway.dependencies import Authenticator, SettingsProvider
from gateway.devauth import dev_jwks
from gateway.entrypoints import RouteDoc, api
from gateway.openapi import build_spec, render_docs_page
from gateway.rpc import Services
from gateway.schemas import HealthSchema, MeSchema, ReadySchema
from shared.config import SERVICE_NAMES
from shared.errors import Forbidden, NotFound

READY_TIMEOUT_SECONDS = 2.0


class GatewayService:
    name = "gateway"

    settings = SettingsProvider()
    auth = Authenticator()
    services = Services()

    # -- who is calling --------------------------------------------------------

    def _identity(self, request: Request) -> Identity:
        identity: Identity = self.auth.verify(bearer_token(request.headers.get("Authorization")))
        return identity

    def _active_player(self, identity: Identity) -> dict[str, Any]:
        """The caller's player, registered on first sight; a locked account is refused."""
        player: dict[str, Any] = self.services.call("accounts", "me", sub=identity.sub)
        if player["status"] != "active":
            raise Forbidden("account_locked", "this account is locked and cannot be used")
        return player

    # -- operations -------------------------------------------------------------

    @api("GET", "/health", RouteDoc("Liveness: the gateway process answers", HealthSchema))
    def health(self, request: Request) -> dict[str, str]:
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
        return build_spec(GatewayService)

    @api("GET", "/docs", RouteDoc("A browsable list of the routes", content_type="text/html"))
    def docs(self, request: Request) -> Response:
        return Response(render_docs_page(build_spec(GatewayService)), content_type="text/html")

    @api("GET", "/dev/jwks.json", RouteDoc("Development issuer keys (DEV_AUTH=1 only)"))
    def dev_jwks(self, request: Request) -> Response:
        if not self.settings.dev_auth:
            raise NotFound("route_not_found", "There is no such route.")
        return Response(json.dumps(dev_jwks()), content_type="application/json")

    # -- players ------------------------------------------------------------------

    @api(
        "GET",
        "/me",
        RouteDoc(
            "The caller's player; registers it on the first call",
            MeSchema,
            auth="player",
            tags=("accounts",),
        ),
    )
    def me(self, request: Request) -> dict[str, Any]:
        """``GET /me`` with ``Authorization: Bearer <token>`` ->
        ``{"id": "7f0c...", "roles": ["player"], "status": "active",
        "registered_at": "2026-11-30T12:00:00+00:00", "registered_now": true}``
        """
        identity = self._identity(request)
        player = self._active_player(identity)
        return {**player, "roles": sorted(identity.roles)}
