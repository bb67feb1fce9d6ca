"""Calling services from the gateway, with a deadline.

nameko 2's RPC proxy waits for a reply forever. Here every call has a
timeout: a service that is down or stuck gives a quick 503, never a hung HTTP
request. The request message also expires in the broker after the same time,
so a service that comes back does not work through requests whose callers
gave up long ago.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import eventlet
from kombu.exceptions import OperationalError as KombuOperationalError
from nameko.exceptions import UnknownService
from nameko.extensions import DependencyProvider
from nameko.rpc import ReplyListener, RpcReply, ServiceProxy

from shared.config import settings_from_nameko_config
from shared.errors import ServiceUnavailable
from shared.rpc import TolerantReplyListener


class ServiceCaller:
    def __init__(self, worker_ctx: Any, reply_listener: ReplyListener, timeout: float) -> None:
        self._worker_ctx = worker_ctx
        self._listener = reply_listener
        self._timeout = timeout
        self._options = {"expiration": max(1, int(timeout * 1000))}

    def _proxy(self, service: str) -> ServiceProxy:
        return ServiceProxy(self._worker_ctx, service, self._listener, **self._options)

    def start(self, service: str, method: str, **kwargs: Any) -> RpcReply:
        try:
            reply: RpcReply = getattr(self._proxy(service), method).call_async(**kwargs)
        except UnknownService as exc:
            raise ServiceUnavailable(
                "service_unavailable", f"the {service} service is not running"
            ) from exc
        except (KombuOperationalError, OSError) as exc:
            # The broker is away (a restart): the request was not sent; a 503 says
            # "try again", where the raw error would have been a 500.
            raise ServiceUnavailable(
                "broker_unavailable", "the message broker is unavailable; try again shortly"
            ) from exc
        return reply

    def wait(self, service: str, reply: RpcReply, timeout: float | None = None) -> Any:
        try:
            with eventlet.Timeout(self._timeout if timeout is None else timeout):
                return reply.result()
        except eventlet.Timeout as exc:
            self._forget(reply)
            raise ServiceUnavailable(
                "service_timeout", f"the {service} service did not answer in time"
            ) from exc

    def call(self, service: str, method: str, **kwargs: Any) -> Any:
        return self.wait(service, self.start(service, method, **kwargs))

    def call_each(
        self, services: Iterable[str], method: str, timeout: float
    ) -> dict[str, Any | ServiceUnavailable]:
        """Call one method on several services at once; failures come back as values."""
        started: dict[str, RpcReply | ServiceUnavailable] = {}
        for service in services:
            try:
                started[service] = self.start(service, method)
            except ServiceUnavailable as exc:
                started[service] = exc
        results: dict[str, Any | ServiceUnavailable] = {}
        for service, reply in started.items():
            if isinstance(reply, ServiceUnavailable):
                results[service] = reply
                continue
            try:
                results[service] = self.wait(service, reply, timeout)
            except ServiceUnavailable as exc:
                results[service] = exc
        return results

    def _forget(self, reply: RpcReply) -> None:
        # The listener keeps a waiting slot per call until its reply arrives;
        # a reply that never comes would keep it forever.
        pending = self._listener._reply_events
        for correlation_id, event in list(pending.items()):
            if event is reply.reply_event:
                pending.pop(correlation_id, None)
                break


class Services(DependencyProvider):  # type: ignore[misc]
    rpc_reply_listener = TolerantReplyListener()

    def setup(self) -> None:
        self.timeout = settings_from_nameko_config(self.container.config).rpc_timeout

    def get_dependency(self, worker_ctx: Any) -> ServiceCaller:
        return ServiceCaller(worker_ctx, self.rpc_reply_listener, self.timeout)
