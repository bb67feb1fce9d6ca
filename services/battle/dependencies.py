"""The battle service's own dependencies: the cards service over RPC, the CPU deck."""

from __future__ import annotations

from typing import Any

import eventlet
from nameko.exceptions import UnknownService
from nameko.extensions import DependencyProvider
from nameko.rpc import ReplyListener, ServiceProxy

from games.quest.cpu import CPU_DECK, CpuDeckNames
from shared.config import settings_from_nameko_config
from shared.errors import ServiceUnavailable
from shared.rpc import TolerantReplyListener


class CardsClient:
    """``deck_for_match`` and ``active_definitions_named`` of the cards service, with a
    deadline (nameko's proxy would wait for ever); its refusals arrive as themselves."""

    def __init__(
        self, proxy: ServiceProxy, listener: ReplyListener, timeout: float, service: str = "cards"
    ) -> None:
        self._proxy = proxy
        self._listener = listener
        self._timeout = timeout
        self._service = service

    def call(self, method: str, **kwargs: Any) -> Any:
        """Any RPC of the service, with the same deadline."""
        return self._call(method, **kwargs)

    def deck_for_match(
        self, player_id: str, deck_id: str, game: str | None = None
    ) -> dict[str, Any]:
        found: dict[str, Any] = self._call(
            "deck_for_match", player_id=player_id, deck_id=deck_id, game=game
        )
        return found

    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self._call(
            "active_definitions_named", game=game, kind=kind, names=names
        )
        return found

    def _call(self, method: str, **kwargs: Any) -> Any:
        try:
            reply = getattr(self._proxy, method).call_async(**kwargs)
        except UnknownService as exc:
            raise ServiceUnavailable(
                f"{self._service}_unavailable", f"the {self._service} service is not running"
            ) from exc
        try:
            with eventlet.Timeout(self._timeout):
                return reply.result()
        except eventlet.Timeout as exc:
            # Forget the waiting slot: a reply that never comes would keep it for ever.
            pending = self._listener._reply_events
            for correlation_id, event in list(pending.items()):
                if event is reply.reply_event:
                    pending.pop(correlation_id, None)
            raise ServiceUnavailable(
                f"{self._service}_unavailable",
                f"the {self._service} service did not answer in time",
            ) from exc


class CardsRpc(DependencyProvider):  # type: ignore[misc]
    rpc_reply_listener = TolerantReplyListener()

    def setup(self) -> None:
        self.timeout = settings_from_nameko_config(self.container.config).rpc_timeout

    def get_dependency(self, worker_ctx: Any) -> CardsClient:
        expiration = max(1, int(self.timeout * 1000))  # the request expires with its caller
        proxy = ServiceProxy(worker_ctx, "cards", self.rpc_reply_listener, expiration=expiration)
        return CardsClient(proxy, self.rpc_reply_listener, self.timeout)


class ServiceCalls:
    """RPC clients of the services a TerraKard attack asks: cards, accounts, authoring."""

    def __init__(self, make: Any) -> None:
        self.cards: CardsClient = make("cards")
        self.accounts: CardsClient = make("accounts")
        self.authoring: CardsClient = make("authoring")


class ServicesRpc(DependencyProvider):  # type: ignore[misc]
    rpc_reply_listener = TolerantReplyListener()

    def setup(self) -> None:
        self.timeout = settings_from_nameko_config(self.container.config).rpc_timeout

    def get_dependency(self, worker_ctx: Any) -> ServiceCalls:
        expiration = max(1, int(self.timeout * 1000))

        def make(service: str) -> CardsClient:
            proxy = ServiceProxy(
                worker_ctx, service, self.rpc_reply_listener, expiration=expiration
            )
            return CardsClient(proxy, self.rpc_reply_listener, self.timeout, service)

        return ServiceCalls(make)


class CpuDeckProvider(DependencyProvider):  # type: ignore[misc]
    """The configured CPU deck (rulebook names); tests swap in their own definitions."""

    def get_dependency(self, worker_ctx: Any) -> CpuDeckNames:
        return CPU_DECK
