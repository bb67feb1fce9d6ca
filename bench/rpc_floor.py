"""The floor of a write through the platform: our edge and a stock nameko no-op.

    PYTHONPATH=. python bench/rpc_floor.py   (``bench/run.py --scenario floor`` runs it)

An ASGI app on uvicorn (uvloop, httptools: the gateway's server) whose one route,
``GET /ping``, makes one call through the gateway's own RPC client
(``gateway.rpc.NamekoRpc``, nameko's wire protocol over aio-pika) to the stock
baseline's ``baseline_pong.ping`` and answers its ``"pong"``. No token, no
validation, no database: what every write of the platform pays at least (an HTTP
request on our server, one RPC over RabbitMQ to a nameko service and its reply),
next to the stock baseline's same no-op through nameko's ``@http`` in the same run.
Whatever a write does on top (the gateway's checks, the service's transaction,
PostgreSQL) must fit in the difference between this row and the baseline for that
write to reach the baseline's rate (issue 15; docs/performance.md).

Settings from the environment, as ``bench/baseline.yaml``'s: ``AMQP_URI``,
``BASELINE_RPC_EXCHANGE``, and ``FLOOR_ADDRESS`` (``host:port``).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn

from gateway.rpc import NamekoRpc

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

rpc = NamekoRpc(
    os.environ.get("AMQP_URI", "amqp://guest:guest@127.0.0.1:5672/"),
    exchange=os.environ.get("BASELINE_RPC_EXCHANGE", "deckyard-bench-baseline-rpc"),
)


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await rpc.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await rpc.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["path"] != "/ping":
        await _answer(send, 404, b"not found")
        return
    answer = await rpc.call("baseline_pong", "ping")
    await _answer(send, 200, str(answer).encode())


async def _answer(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


if __name__ == "__main__":
    host, _, port = os.environ.get("FLOOR_ADDRESS", "127.0.0.1:18101").rpartition(":")
    uvicorn.run(
        app,
        host=host,
        port=int(port),
        loop="uvloop",
        http="httptools",
        lifespan="on",
        access_log=False,
        log_level="warning",
    )
