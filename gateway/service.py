"""The gateway nameko service: the public HTTP API, wired together.

The routes live in ``gateway/routes/``, one module per area and per game; this
class only combines them and declares the dependencies they use.
"""

from __future__ import annotations

from gateway.dependencies import ActivePlayers, Authenticator, RateLimiter
from gateway.routes.accounts import AccountRoutes
from gateway.routes.authoring import AuthoringRoutes
from gateway.routes.catalogue import CatalogueRoutes
from gateway.routes.platform import PlatformRoutes
from gateway.routes.quest.attempts import QuestAttemptRoutes
from gateway.routes.quest.battles import QuestBattleRoutes
from gateway.routes.quest.cards import QuestCardRoutes
from gateway.routes.quest.events import QuestEventRoutes
from gateway.rpc import Services
from shared.dependencies import SettingsProvider
from shared.health import BrokerReadiness


class GatewayService(
    PlatformRoutes,
    AccountRoutes,
    CatalogueRoutes,
    AuthoringRoutes,
    QuestEventRoutes,
    QuestAttemptRoutes,
    QuestCardRoutes,
    QuestBattleRoutes,
):
    name = "gateway"

    settings = SettingsProvider()
    auth = Authenticator()
    limits = RateLimiter()
    players = ActivePlayers()
    services = Services()
    broker_ready = BrokerReadiness()
