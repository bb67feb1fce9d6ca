"""The gateway nameko service: the public HTTP routes.

Each route authenticates, calls one service over RPC and shapes the answer;
rules live in the services.
"""

from __future__ import annotations

import json
from typing import Any

from kombu.connection import Connection
from werkzeug.wrappers import Request, Response

from gateway.account_routes import AccountRoutes
from gateway.auth import Identity, bearer_token
from gateway.battle_routes import BattleRoutes
from gateway.card_routes import CardRoutes
from gateway.dependencies import ActivePlayers, Authenticator, RateLimiter
from gateway.devauth import dev_jwks
from gateway.entrypoints import RouteDoc, api, json_input, query_args
from gateway.openapi import build_spec, render_docs_page
from gateway.rpc import Services
from gateway.schemas import (
    AnswerRequest,
    AttemptSchema,
    AuditEntrySchema,
    CatalogueQuery,
    CatalogueSchema,
    ContentListQuery,
    ContentSchema,
    CreateContentRequest,
    EditContentRequest,
    HealthSchema,
    MeSchema,
    ReadySchema,
    StartAttemptRequest,
    TransitionRequest,
)
from shared.config import SERVICE_NAMES
from shared.dependencies import SettingsProvider
from shared.errors import Forbidden, NotFound, Unauthorized
from shared.quest_schemas import NearbyEventSchema, PointSchema
from shared.schemas import load

READY_TIMEOUT_SECONDS = 2.0


class GatewayService(CardRoutes, BattleRoutes, AccountRoutes):
    name = "gateway"

    settings = SettingsProvider()
    auth = Authenticator()
    limits = RateLimiter()
    players = ActivePlayers()
    services = Services()

    # -- who is calling --------------------------------------------------------

    def _identity(self, request: Request) -> Identity:
        """The verified caller. A mutating request spends from its player's budget, or,
        when its token is missing or refused, from its client address's budget, so bad
        tokens never spend an honest player's (gateway/ratelimit.py): 429 over either."""
        try:
            token = bearer_token(request.headers.get("Authorization"))
            identity: Identity = self.auth.verify(token)
        except Unauthorized:
            self.limits.check_unauthenticated(request.method, request.environ)
            raise
        self.limits.check_player(request.method, identity.sub)
        return identity

    def _active_player(self, identity: Identity) -> dict[str, Any]:
        """The caller's player, registered on first sight; a locked account is refused.
        An active answer is leased for a second (gateway/players.py): no RPC then."""
        player: dict[str, Any] = self.players.active_player(
            identity.sub, lambda: self.services.call("accounts", "me", sub=identity.sub)
        )
        if player["status"] != "active":
            raise Forbidden("account_locked", "this account is locked and cannot be used")
        return player

    def _author(self, request: Request) -> Identity:
        """An active player whose token grants the Author role; anyone else learns nothing."""
        identity = self._identity(request)
        self._active_player(identity)
        if not identity.is_author:
            raise Forbidden("author_role_required", "only Authors may use authoring routes")
        return identity

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

    # -- Quest events and attempts ------------------------------------------------------

    @api(
        "GET",
        "/quest/events",
        RouteDoc(
            "Published events open now near a point (?lat=&lon=), nearest first",
            NearbyEventSchema,
            many=True,
            query=PointSchema,
            errors=(422,),
            tags=("quest",),
        ),
    )
    def nearby_events(self, request: Request) -> Any:
        args = load(PointSchema(), query_args(request))
        return self.services.call("challenge", "nearby_events", lat=args["lat"], lon=args["lon"])

    @api(
        "POST",
        "/quest/events/<uuid:event_id>/attempt",
        RouteDoc(
            "Start the one attempt at an event (201) or resume it (200)",
            AttemptSchema,
            StartAttemptRequest,
            auth="player",
            status=201,
            errors=(400, 404, 409, 413, 422),
            also=(200,),
            tags=("quest",),
        ),
    )
    def start_attempt(self, request: Request, event_id: Any) -> tuple[int, Any]:
        """``{"location": {"lat": 51.508, "lon": -0.1281, "accuracy_m": 12,
        "acquired_at": "2026-11-30T12:00:00Z"}}`` -> 201 the attempt (questions, deadline)"""
        player = self._active_player(self._identity(request))
        args = StartAttemptRequest().dump(load(StartAttemptRequest(), json_input(request)))
        started = self.services.call(
            "challenge",
            "start_attempt",
            player_id=player["id"],
            event_id=str(event_id),
            location=args["location"],
        )
        return (201 if started["created"] else 200), started["attempt"]

    @api(
        "GET",
        "/quest/attempts/<uuid:attempt_id>",
        RouteDoc(
            "Your attempt: questions, options, deadline, your answers; the result once completed",
            AttemptSchema,
            auth="player",
            errors=(404,),
            tags=("quest",),
        ),
    )
    def get_attempt(self, request: Request, attempt_id: Any) -> Any:
        player = self._active_player(self._identity(request))
        return self.services.call(
            "challenge", "get_attempt", player_id=player["id"], attempt_id=str(attempt_id)
        )

    @api(
        "PUT",
        "/quest/attempts/<uuid:attempt_id>/answers/<int:index>",
        RouteDoc(
            "Answer one question: {choice} or {order}; answers are final",
            AttemptSchema,
            AnswerRequest,
            auth="player",
            errors=(400, 404, 409, 413, 422),
            tags=("quest",),
        ),
    )
    def answer(self, request: Request, attempt_id: Any, index: int) -> Any:
        """``{"choice": "o1a2b3c4d"}`` -> the attempt with your answer recorded"""
        player = self._active_player(self._identity(request))
        submission = load(AnswerRequest(), json_input(request))
        return self.services.call(
            "challenge",
            "answer",
            player_id=player["id"],
            attempt_id=str(attempt_id),
            index=index,
            submission=submission,
        )

    # -- cards ------------------------------------------------------------------------

    @api(
        "GET",
        "/cards/catalogue",
        RouteDoc(
            "The published card definitions of a game (?game=quest)",
            CatalogueSchema,
            many=True,
            query=CatalogueQuery,
            errors=(422,),
            tags=("cards",),
        ),
    )
    def catalogue(self, request: Request) -> Any:
        """``GET /cards/catalogue?game=quest`` -> ``[{"id": "...", "name": "Quillip", ...}]``"""
        args = load(CatalogueQuery(), query_args(request))
        return self.services.call("cards", "catalogue", game=args["game"])

    # -- authoring (Authors only) ---------------------------------------------------

    @api(
        "POST",
        "/authoring/content",
        RouteDoc(
            "Create a draft of any kind of content",
            ContentSchema,
            CreateContentRequest,
            auth="author",
            status=201,
            errors=(400, 404, 409, 413, 422),
            tags=("authoring",),
        ),
    )
    def create_content(self, request: Request) -> tuple[int, Any]:
        """``{"kind": "question", "game": "quest", "body": {...}}`` -> 201 the draft, version 1"""
        author = self._author(request)
        args = load(CreateContentRequest(), json_input(request))
        replaces = str(args["replaces"]) if args["replaces"] else None
        created = self.services.call(
            "authoring",
            "create",
            actor=author.sub,
            kind=args["kind"],
            game=args["game"],
            body=args["body"],
            replaces=replaces,
        )
        return 201, created

    @api(
        "GET",
        "/authoring/content",
        RouteDoc(
            "List content, newest first (?kind=&state=&limit=)",
            ContentSchema,
            many=True,
            query=ContentListQuery,
            auth="author",
            errors=(422,),
            tags=("authoring",),
        ),
    )
    def list_content(self, request: Request) -> Any:
        self._author(request)
        args = load(ContentListQuery(), query_args(request))
        return self.services.call("authoring", "list", **args)

    @api(
        "GET",
        "/authoring/content/<uuid:content_id>",
        RouteDoc(
            "Read content, private fields included",
            ContentSchema,
            auth="author",
            errors=(404,),
            tags=("authoring",),
        ),
    )
    def get_content(self, request: Request, content_id: Any) -> Any:
        self._author(request)
        return self.services.call("authoring", "get", content_id=str(content_id))

    @api(
        "PUT",
        "/authoring/content/<uuid:content_id>",
        RouteDoc(
            "Edit a draft",
            ContentSchema,
            EditContentRequest,
            auth="author",
            errors=(400, 404, 409, 413, 422),
            tags=("authoring",),
        ),
    )
    def edit_content(self, request: Request, content_id: Any) -> Any:
        """``{"expectedVersion": 1, "body": {...}}`` -> the draft at version 2"""
        author = self._author(request)
        args = load(EditContentRequest(), json_input(request))
        return self.services.call(
            "authoring",
            "edit",
            actor=author.sub,
            content_id=str(content_id),
            expected_version=args["expected_version"],
            body=args["body"],
        )

    @api(
        "POST",
        "/authoring/content/<uuid:content_id>/transitions",
        RouteDoc(
            "Submit, approve, return, publish or retire",
            ContentSchema,
            TransitionRequest,
            auth="author",
            errors=(400, 404, 409, 413, 422),
            tags=("authoring",),
        ),
    )
    def transition_content(self, request: Request, content_id: Any) -> Any:
        """``{"to": "in_review", "expectedVersion": 2}`` -> the content at version 3"""
        author = self._author(request)
        args = load(TransitionRequest(), json_input(request))
        return self.services.call(
            "authoring",
            "transition",
            actor=author.sub,
            content_id=str(content_id),
            to=args["to"],
            expected_version=args["expected_version"],
            reason=args["reason"],
        )

    @api(
        "GET",
        "/authoring/content/<uuid:content_id>/audit",
        RouteDoc(
            "The audit trail: who did what, when, from and to which state",
            AuditEntrySchema,
            many=True,
            auth="author",
            errors=(404,),
            tags=("authoring",),
        ),
    )
    def content_audit(self, request: Request, content_id: Any) -> Any:
        self._author(request)
        return self.services.call("authoring", "audit", content_id=str(content_id))
