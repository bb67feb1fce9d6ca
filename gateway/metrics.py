"""The gateway's Prometheus metrics, served as ``GET /metrics`` on its status port.

The API port never serves them (the Ingress exposes it). What is counted:

* every request of the API port by **route template** (``/quest/attempts/<uuid:attempt_id>``,
  never the path a client sent), method and status, with a latency histogram, and the
  requests in flight (``GatewayApp``, gateway/asgi.py); a path no route has is
  ``<no route>``, a file of the web client ``<web client>``;
* every RPC to a service by service, method and outcome (gateway/rpc.py);
* the push hub's open sockets, its limit and its deliveries, and whether the broker
  link is open (read from the gateway when scraped).

docs/operations.md lists every metric and the alerts on them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client import generate_latest as _exposition
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response

from gateway.http import RouteDoc, internal

disable_created_metrics()  # type: ignore[no-untyped-call]  # no *_created series (unused)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# The classic text format, which every Prometheus reads (the library's "latest" is 1.0.0).
METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
NO_ROUTE = "<no route>"
WEB_CLIENT = "<web client>"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

HTTP_REQUESTS = Counter(
    "deckyard_http_requests",
    "Requests the gateway answered, by route template, method and status",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "deckyard_http_request_duration_seconds",
    "Time from a request's arrival to its response (a stream: to its first byte)",
    ["route", "method"],
    buckets=LATENCY_BUCKETS,
)
HTTP_IN_FLIGHT = Gauge(
    "deckyard_http_requests_in_flight", "Requests the gateway is answering right now"
)
RPC_CLIENT_DURATION = Histogram(
    "deckyard_rpc_client_duration_seconds",
    "Time the gateway waited for a service's RPC, by service, method and outcome "
    "(ok, refused, unavailable, error, cancelled)",
    ["service", "method", "outcome"],
    buckets=LATENCY_BUCKETS,
)


def method_label(method: str) -> str:
    return method if method in METHODS else "other"


# Each label set's child, found once: ``labels()`` costs a lock and a lookup per call, on
# every request. Bounded as the labels are (routes x methods x statuses).
_TIMERS: dict[tuple[str, str], Any] = {}
_COUNTS: dict[tuple[str, str, int], Any] = {}
_RPC_TIMERS: dict[tuple[str, str, str], Any] = {}


class RequestClock:
    """One request's measurement: in flight from ``start`` to ``done``."""

    __slots__ = ("started",)

    def __init__(self) -> None:
        self.started = time.perf_counter()
        HTTP_IN_FLIGHT.inc()

    def done(self, route: str, method: str, status: int) -> None:
        elapsed = time.perf_counter() - self.started
        HTTP_IN_FLIGHT.dec()
        method = method_label(method)  # a client's own method would grow the caches
        timer = _TIMERS.get((route, method))
        if timer is None:
            timer = _TIMERS[route, method] = HTTP_DURATION.labels(route, method)
        timer.observe(elapsed)
        count = _COUNTS.get((route, method, status))
        if count is None:
            count = _COUNTS[route, method, status] = HTTP_REQUESTS.labels(route, method, status)
        count.inc()


def observe_rpc(service: str, method: str, outcome: str, seconds: float) -> None:
    timer = _RPC_TIMERS.get((service, method, outcome))
    if timer is None:
        timer = RPC_CLIENT_DURATION.labels(service, method, outcome)
        _RPC_TIMERS[service, method, outcome] = timer
    timer.observe(seconds)


class GatewayState(Collector):
    """What the gateway holds, read when scraped: its push hub and its broker link."""

    def __init__(self) -> None:
        self._hub: Any = None
        self._broker_up: Callable[[], bool] = lambda: False
        self._stream_lag: Callable[[], float | None] = lambda: None

    def attach(
        self,
        hub: Any,
        broker_up: Callable[[], bool],
        stream_lag: Callable[[], float | None] = lambda: None,
    ) -> None:
        self._hub, self._broker_up, self._stream_lag = hub, broker_up, stream_lag

    def collect(self) -> Iterator[Metric]:
        hub = self._hub
        if hub is None:
            return
        yield GaugeMetricFamily(
            "deckyard_push_connections", "Open push sockets (WebSocket and SSE)", hub.count
        )
        yield GaugeMetricFamily(
            "deckyard_push_connections_limit",
            "Push sockets this gateway accepts at most (MAX_CONNECTIONS)",
            hub.max_connections,
        )
        yield CounterMetricFamily(
            "deckyard_push_messages_delivered",
            "Push messages handed to a player's open socket",
            hub.delivered,
        )
        yield CounterMetricFamily(
            "deckyard_push_slow_sockets_dropped",
            "Push sockets closed because they could not keep up (their queue full); "
            "the client reconnects and catches up",
            hub.slow_dropped,
        )
        yield GaugeMetricFamily(
            "deckyard_broker_up",
            "1 if the gateway's link to the broker is open, else 0",
            1 if self._broker_up() else 0,
        )
        lag = self._stream_lag()
        if lag is not None:
            yield GaugeMetricFamily(
                "deckyard_push_stream_lag_seconds",
                "How long ago the newest tick this gateway read back was sent: it has read "
                "the push stream up to then (long player leases need it under "
                "PLAYER_LEASE_SECONDS)",
                lag,
            )


GATEWAY_STATE = GatewayState()
REGISTRY.register(GATEWAY_STATE)


class MetricsRoutes:
    @internal(
        "GET",
        "/metrics",
        RouteDoc(
            "Prometheus metrics of this gateway (status port only)", content_type="text/plain"
        ),
    )
    async def metrics(self, request: Request) -> Response:
        """``GET /metrics`` (status port) -> Prometheus' text format:
        ``deckyard_http_requests_total{route="/me",method="GET",status="200"} 3.0`` ..."""
        return Response(_exposition(REGISTRY), media_type=METRICS_CONTENT_TYPE)
