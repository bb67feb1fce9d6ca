"""Calling the nameko services from the asyncio gateway: nameko's RPC wire protocol.

What a nameko ``RpcProxy`` does, spoken with aio-pika:

* a request is JSON ``{"args": [], "kwargs": {...}}`` published to the RPC exchange
  (topic, durable; ``RPC_EXCHANGE``) with routing key ``<service>.<method>``,
  ``reply_to`` = this process's reply routing key, a ``correlation_id``, and the
  caller's context as ``nameko.<key>`` headers (we send ``nameko.request_id``, the
  request's X-Request-ID, and ``nameko.call_id_stack``);
* the service answers by publishing ``{"result": ..., "error": null}`` or
  ``{"result": null, "error": {"exc_type", "exc_path", "exc_args", "value"}}`` to the
  same exchange with the ``reply_to`` routing key; this process's reply queue
  (exclusive, bound under that key) receives it. An error whose class is registered
  with nameko (``shared/errors.py``) is raised as that class, anything else as
  nameko's ``RemoteError`` (a 500 at the edge).

Differences, each measured or needed:

* **No publisher confirms.** nameko confirms every request only to learn that no
  queue is bound (``UnknownService``). The request is ``mandatory``: an unroutable one
  comes back as ``basic.return`` on the channel, and the waiting call fails at once
  with 503 ``service_unavailable``, without a confirm round trip on every call.
* **A deadline on every call** (``RPC_TIMEOUT_SECONDS``): 503 ``service_timeout``, and
  the request expires in the broker after the same time, so a service that comes back
  does not work through requests whose callers gave up.
* **A broker outage is a 503** ``broker_unavailable``: the connection is robust (it
  reconnects and declares its reply queue again); calls while it is down fail at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Iterable
from typing import Any

import aio_pika
from aio_pika.abc import AbstractIncomingMessage
from nameko.exceptions import deserialize

from gateway.http import REQUEST_ID
from gateway.metrics import observe_rpc
from shared import tracing
from shared.errors import ServiceUnavailable, outcome_of

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_SECONDS = 5.0
RECONNECT_SECONDS = 1.0  # ours: a broker back after a restart is used within a second


class BrokerUnavailable(ServiceUnavailable):
    def __init__(self) -> None:
        super().__init__("broker_unavailable", "the message broker is unavailable; try again")


class NamekoRpc:
    """One process's RPC client: one connection, one channel, one reply queue."""

    def __init__(self, amqp_uri: str, exchange: str = "nameko-rpc", timeout: float = 5.0) -> None:
        self.amqp_uri = amqp_uri
        self.exchange_name = exchange
        self.timeout = timeout
        self.reply_key = f"rpc.reply-gateway-{uuid.uuid4()}"
        self._pending: dict[str, tuple[asyncio.Future[Any], str]] = {}
        self._connection: aio_pika.abc.AbstractRobustConnection | None = None
        self._exchange: aio_pika.abc.AbstractExchange | None = None

    @property
    def connection(self) -> aio_pika.abc.AbstractRobustConnection | None:
        return self._connection

    @property
    def connected(self) -> bool:
        return self._connection is not None and self._connection.connected.is_set()

    async def start(self) -> None:
        """Connect, declare the exchange and this process's reply queue, and consume it."""
        self._connection = await aio_pika.connect_robust(
            self.amqp_uri,
            timeout=CONNECT_TIMEOUT_SECONDS,
            reconnect_interval=RECONNECT_SECONDS,
            client_properties={"connection_name": "gateway rpc"},
        )
        channel = await self._connection.channel(publisher_confirms=False)
        channel.return_callbacks.add(self._returned)
        self._exchange = await channel.declare_exchange(
            self.exchange_name, aio_pika.ExchangeType.TOPIC, durable=True
        )
        queue = await channel.declare_queue(self.reply_key, exclusive=True, auto_delete=True)
        await queue.bind(self._exchange, routing_key=self.reply_key)
        await queue.consume(self._replied, no_ack=True)

    async def stop(self) -> None:
        for future, _ in self._pending.values():
            if not future.done():
                future.set_exception(BrokerUnavailable())
        if self._connection is not None:
            await self._connection.close()

    async def call(
        self,
        service: str,
        method: str,
        *,
        request_id: str | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> Any:
        """``service.method(**kwargs)``: its result, or its error raised here; timed by
        service, method and outcome (``deckyard_rpc_client_duration_seconds``)."""
        started = time.perf_counter()
        outcome = "cancelled"  # unless it ends otherwise: the request went away first
        try:
            if tracing.enabled():  # a span per call, its context in the call's headers
                with tracing.rpc_client_span(service, method) as trace_headers:
                    result = await self._call(
                        service, method, request_id, timeout, kwargs, trace_headers
                    )
            else:
                result = await self._call(service, method, request_id, timeout, kwargs)
            outcome = "ok"
            return result
        except Exception as exc:
            outcome = outcome_of(exc)
            raise
        finally:
            observe_rpc(service, method, outcome, time.perf_counter() - started)

    async def _call(
        self,
        service: str,
        method: str,
        request_id: str | None,
        timeout: float | None,
        kwargs: dict[str, Any],
        trace_headers: dict[str, str] | None = None,
    ) -> Any:
        deadline = self.timeout if timeout is None else timeout
        if self._exchange is None or not self.connected:
            raise BrokerUnavailable()
        correlation_id = uuid.uuid4().hex
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[correlation_id] = (future, service)
        headers: dict[str, Any] = {
            "nameko.call_id_stack": [f"gateway.{service}.{method}.{correlation_id}"]
        }
        request_id = request_id or REQUEST_ID.get()
        if request_id:
            headers["nameko.request_id"] = request_id
        if trace_headers:
            headers.update(trace_headers)
        message = aio_pika.Message(
            json.dumps({"args": [], "kwargs": kwargs}).encode(),
            content_type="application/json",
            content_encoding="utf-8",
            correlation_id=correlation_id,
            reply_to=self.reply_key,
            headers=headers,
            expiration=max(0.001, deadline),
        )
        # asyncio.timeout, not wait_for: no task per await on the hot path.
        try:
            try:
                async with asyncio.timeout(deadline):
                    await self._exchange.publish(message, f"{service}.{method}", mandatory=True)
            except Exception as exc:  # the broker is away: the request was not sent
                raise BrokerUnavailable() from exc
            try:
                async with asyncio.timeout(deadline):
                    reply = await future
            except TimeoutError as exc:
                raise ServiceUnavailable(
                    "service_timeout", f"the {service} service did not answer in time"
                ) from exc
        finally:
            self._pending.pop(correlation_id, None)
        error = reply.get("error")
        if error:
            raise deserialize(error)
        return reply.get("result")

    async def call_each(
        self, services: Iterable[str], method: str, timeout: float
    ) -> dict[str, Any]:
        """One method on several services at once; failures come back as values."""
        names = list(services)

        async def one(service: str) -> Any:
            try:
                return await self.call(service, method, timeout=timeout)
            except ServiceUnavailable as exc:
                return exc

        return dict(zip(names, await asyncio.gather(*(one(s) for s in names)), strict=True))

    async def _replied(self, message: AbstractIncomingMessage) -> None:
        waiting = self._pending.get(message.correlation_id or "")
        if waiting is None or waiting[0].done():
            return  # its caller gave up (deadline); a late reply is dropped, as nameko does
        try:
            reply = json.loads(message.body)
        except ValueError:
            reply = {"error": {"exc_type": "MalformedReply", "value": "not JSON"}}
        waiting[0].set_result(reply)

    def _returned(self, channel: Any, message: AbstractIncomingMessage) -> None:
        """A request no queue was bound for: its service has never run on this broker."""
        waiting = self._pending.get(message.correlation_id or "")
        if waiting is not None and not waiting[0].done():
            future, service = waiting
            future.set_exception(
                ServiceUnavailable("service_unavailable", f"the {service} service is not running")
            )
