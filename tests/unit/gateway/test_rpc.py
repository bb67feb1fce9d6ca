"""The asyncio nameko RPC client: what a call becomes on the wire, and every way it ends.

The exchange is a stand-in that records what would be published; the reply queue's
and the channel's callbacks (``_replied``, ``_returned``) are called as aio-pika
calls them. The client against real services is the e2e suite's whole gateway.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest

from gateway.rpc import NamekoRpc
from shared.errors import NotFound, ServiceUnavailable


class Exchange:
    def __init__(self, fail: BaseException | None = None) -> None:
        self.published: list[tuple[Any, str, bool]] = []
        self.fail = fail

    async def publish(self, message: Any, routing_key: str, mandatory: bool = True) -> None:
        if self.fail is not None:
            raise self.fail
        self.published.append((message, routing_key, mandatory))


def client(exchange: Exchange, connected: bool = True, timeout: float = 1.0) -> NamekoRpc:
    rpc = NamekoRpc("amqp://unused/", "nameko-rpc", timeout)
    rpc._exchange = exchange  # type: ignore[assignment]
    event = asyncio.Event()
    if connected:
        event.set()
    rpc._connection = SimpleNamespace(connected=event)  # type: ignore[assignment]
    return rpc


async def sent(exchange: Exchange) -> Any:
    """The message the call published, once it has been (publish runs in its own task)."""
    while not exchange.published:
        await asyncio.sleep(0)
    return exchange.published[0][0]


def reply(message: Any, body: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(correlation_id=message.correlation_id, body=json.dumps(body).encode())


def test_a_call_is_nameko_wire_format_and_its_result_comes_back():
    async def scenario() -> Any:
        exchange = Exchange()
        rpc = client(exchange)
        call = asyncio.create_task(rpc.call("accounts", "me", request_id="r-1", sub="auth0|x"))
        await sent(exchange)
        message, routing_key, mandatory = exchange.published[0]
        assert routing_key == "accounts.me" and mandatory
        assert json.loads(message.body) == {"args": [], "kwargs": {"sub": "auth0|x"}}
        assert message.content_type == "application/json"
        assert message.reply_to == rpc.reply_key
        assert message.headers["nameko.request_id"] == "r-1"
        assert message.expiration is not None  # the request expires with its deadline
        await rpc._replied(reply(message, {"result": {"id": "p1"}, "error": None}))
        return await call

    assert asyncio.run(scenario()) == {"id": "p1"}


def test_a_registered_error_is_raised_as_its_own_class():
    async def scenario() -> None:
        exchange = Exchange()
        rpc = client(exchange)
        call = asyncio.create_task(rpc.call("cards", "get_deck", deck_id="d"))
        message = await sent(exchange)
        error = NotFound("deck_not_found", "there is no such deck", {"deck_id": "d"})
        serialized = {
            "exc_type": "NotFound",
            "exc_path": "shared.errors.NotFound",
            "exc_args": list(error.args),
            "value": str(error),
        }
        await rpc._replied(reply(message, {"result": None, "error": serialized}))
        with pytest.raises(NotFound) as caught:
            await call
        assert caught.value.code == "deck_not_found"
        assert caught.value.details == {"deck_id": "d"}

    asyncio.run(scenario())


def test_a_request_no_queue_took_is_service_unavailable_at_once():
    async def scenario() -> None:
        exchange = Exchange()
        rpc = client(exchange, timeout=30.0)
        call = asyncio.create_task(rpc.call("ghost", "ping"))
        returned = SimpleNamespace(correlation_id=(await sent(exchange)).correlation_id)
        rpc._returned(None, returned)
        with pytest.raises(ServiceUnavailable) as caught:
            await call
        assert caught.value.code == "service_unavailable"

    asyncio.run(scenario())


def test_no_answer_in_time_is_service_timeout_and_a_late_reply_is_dropped():
    async def scenario() -> None:
        exchange = Exchange()
        rpc = client(exchange, timeout=0.01)
        with pytest.raises(ServiceUnavailable) as caught:
            await rpc.call("accounts", "me", sub="auth0|x")
        assert caught.value.code == "service_timeout"
        await rpc._replied(reply(exchange.published[0][0], {"result": "late"}))  # nobody waits
        assert rpc._pending == {}

    asyncio.run(scenario())


@pytest.mark.parametrize("fail", [ConnectionError("reset"), RuntimeError("channel closed")])
def test_a_broker_that_refuses_the_call_is_broker_unavailable(fail):
    async def scenario() -> None:
        rpc = client(Exchange(fail=fail))
        with pytest.raises(ServiceUnavailable) as caught:
            await rpc.call("accounts", "me")
        assert caught.value.code == "broker_unavailable"
        assert rpc._pending == {}

    asyncio.run(scenario())


def test_without_a_broker_link_a_call_is_broker_unavailable_and_nothing_is_sent():
    async def scenario() -> None:
        exchange = Exchange()
        rpc = client(exchange, connected=False)
        with pytest.raises(ServiceUnavailable) as caught:
            await rpc.call("accounts", "me")
        assert caught.value.code == "broker_unavailable"
        assert exchange.published == []
        assert not rpc.connected

    asyncio.run(scenario())
