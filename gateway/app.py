"""The gateway, wired together: its route modules, their dependencies, its two apps.

``Gateway`` combines the route mixins (``gateway/routes/``, one module per area and
per game) with what they use: the token verifier, the rate limits, the player leases,
the RPC client, the push hub. Its bases are the explicit list of route classes, each
declaring its routes in its own body; a handler name or a method and path declared
twice refuses to start (``routes_of``, gateway/http.py). ``api_app`` serves the
public routes and the push channel on ``GATEWAY_PORT``; ``status_app`` the internal
routes on ``STATUS_PORT`` (``/internal/status``, and ``/metrics``: gateway/metrics.py).

"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from gateway.asgi import Bound, GatewayApp, RoutingTable
from gateway.auth import JwksCache, TokenVerifier, fetch_jwks_over_http
from gateway.clientaddress import ClientAddresses
from gateway.cors import CorsPolicy
from gateway.devauth import DEV_ISSUER, dev_jwks
from gateway.http import routes_of
from gateway.metrics import GATEWAY_STATE, MetricsRoutes
from gateway.players import PlayerLeases
from gateway.push.hub import PushHub
from gateway.push.presence import PresenceReporter
from gateway.push.routes import PushRoutes
from gateway.push.stream import EventStream
from gateway.push.watch import StreamWatch
from gateway.ratelimit import Limit, RateLimits
from gateway.routes.accounts import AccountRoutes
from gateway.routes.authoring import AuthoringRoutes
from gateway.routes.catalogue import CatalogueRoutes
from gateway.routes.chronovore.cards import ChronovoreCardRoutes
from gateway.routes.chronovore.crafting import ChronovoreCraftingRoutes
from gateway.routes.chronovore.matches import ChronovoreMatchRoutes
from gateway.routes.chronovore.pvp import ChronovorePvpRoutes
from gateway.routes.dev_clock import DevClockRoutes
from gateway.routes.economy import EconomyRoutes
from gateway.routes.fairness import FairnessRoutes
from gateway.routes.invitations import InvitationRoutes
from gateway.routes.platform import PlatformRoutes
from gateway.routes.quest.attempts import QuestAttemptRoutes
from gateway.routes.quest.battles import QuestBattleRoutes
from gateway.routes.quest.cards import QuestCardRoutes
from gateway.routes.quest.events import QuestEventRoutes
from gateway.routes.quest.pvp import QuestPvpRoutes
from gateway.routes.terrakard.attacks import TerraKardAttackRoutes
from gateway.routes.terrakard.cards import TerraKardCardRoutes
from gateway.routes.web import WebRoutes
from gateway.rpc import NamekoRpc
from shared.config import Settings


def build_verifier(settings: Settings) -> TokenVerifier:
    """Auth0 in production; the shipped development issuer only with DEV_AUTH=1."""
    if settings.dev_auth:
        keys = JwksCache(fetch=dev_jwks)
        issuer = DEV_ISSUER
    else:
        if not settings.auth0_domain:
            raise RuntimeError("set AUTH0_DOMAIN (or DEV_AUTH=1 for the development issuer)")
        issuer = f"https://{settings.auth0_domain}/"
        keys = JwksCache(fetch=fetch_jwks_over_http(f"{issuer}.well-known/jwks.json"))
    return TokenVerifier(issuer, settings.auth0_audience, keys, settings.auth0_roles_claim)


def build_limits(settings: Settings) -> RateLimits:
    return RateLimits(
        Limit(settings.rate_limit_player_per_minute, settings.rate_limit_player_burst),
        Limit(settings.rate_limit_address_per_minute, settings.rate_limit_address_burst),
        addresses=ClientAddresses(settings.trusted_proxy_hops, settings.trusted_proxy_header),
        per_author=Limit(settings.rate_limit_author_per_minute, settings.rate_limit_author_burst),
    )


class Gateway(
    PlatformRoutes,
    MetricsRoutes,
    DevClockRoutes,
    AccountRoutes,
    CatalogueRoutes,
    AuthoringRoutes,
    QuestEventRoutes,
    QuestAttemptRoutes,
    QuestCardRoutes,
    QuestBattleRoutes,
    QuestPvpRoutes,
    ChronovoreCardRoutes,
    ChronovoreMatchRoutes,
    ChronovoreCraftingRoutes,
    ChronovorePvpRoutes,
    InvitationRoutes,
    EconomyRoutes,
    FairnessRoutes,
    TerraKardCardRoutes,
    TerraKardAttackRoutes,
    PushRoutes,
    WebRoutes,
):
    def __init__(self, settings: Settings) -> None:
        # First: two routes of one name, or of one method and path, refuse to start.
        self.declared_routes = routes_of(type(self))
        self.settings = settings
        self.auth = build_verifier(settings)
        self.limits = build_limits(settings)
        watch = StreamWatch()
        self.players = PlayerLeases(
            settings.player_lease_seconds,
            trust_seconds=settings.player_trust_seconds,
            caught_up_at=lambda: watch.caught_up_at,
        )
        self.services = NamekoRpc(settings.amqp_uri, settings.rpc_exchange, settings.rpc_timeout)
        self.hub = PushHub()
        self.stream = EventStream(settings.amqp_uri, self.hub, self.players, watch)
        self.presence = PresenceReporter(self.hub, self.services.call)  # to battle
        GATEWAY_STATE.attach(self.hub, self.broker_ready, watch.lag)  # read by GET /metrics

    def broker_ready(self) -> bool:
        """Readiness: this process's own broker link is open (no new connection per call)."""
        return self.services.connected

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        await self.services.start()
        await self.stream.start()
        await self.presence.start()
        try:
            yield
        finally:
            await self.hub.close_all()
            await self.presence.stop()
            await self.stream.stop()
            await self.services.stop()

    def _table(self, internal: bool) -> RoutingTable:
        # Looked up on the class: an attribute of the instance never stands in for a handler.
        return RoutingTable(
            Bound(route, getattr(type(self), name).__get__(self))
            for name, route in self.declared_routes
            if route.internal == internal
        )

    def api_app(self) -> GatewayApp:
        return GatewayApp(
            self._table(internal=False),
            CorsPolicy.of(self.settings.cors_origins),
            self.settings.max_body_bytes,
            sockets=self.socket_routes(),
            lifespan=self.running,
            files=self.web_file,
            measured=True,
        )

    def status_app(self) -> GatewayApp:
        # No browser has business on the operators' port: no CORS there.
        return GatewayApp(self._table(internal=True), CorsPolicy(), self.settings.max_body_bytes)
