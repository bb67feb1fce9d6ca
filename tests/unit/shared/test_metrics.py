"""The services' metrics: workers timed by method and outcome with their request's id,
gauges measured from the database (and a database that is away said once)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from nameko.events import EventHandler
from nameko.rpc import Rpc
from prometheus_client import REGISTRY

from shared.errors import Conflict, ServiceUnavailable, outcome_of
from shared.health import ServiceGauges
from shared.logs import REQUEST_ID
from shared.metrics import WorkerMetrics, measure_pool


def value(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


def entrypoint(kind, method):
    point = kind() if kind is Rpc else kind("accounts", "PlayerRegistered")
    point.method_name = method
    return point


class Worker:
    """A worker's context as nameko makes it (hashed by identity, as nameko's)."""

    def __init__(self, point, request_id=None):
        self.entrypoint = point
        self.service_name = "unittest"
        self.context_data = {"request_id": request_id} if request_id else {}


def worker(kind, method, request_id=None):
    return Worker(entrypoint(kind, method), request_id)


def raised(exc):
    try:
        raise exc
    except Exception as caught:
        return type(caught), caught, caught.__traceback__


@pytest.mark.parametrize(
    ("exc", "outcome"),
    [
        (None, "ok"),
        (Conflict("stale_version", "stale"), "refused"),
        (ServiceUnavailable("database_unavailable", "away"), "unavailable"),
        (KeyError("bug"), "error"),
    ],
)
def test_an_outcome_is_ok_refused_unavailable_or_error(exc, outcome):
    assert outcome_of(exc) == outcome


def test_a_worker_is_timed_by_method_and_outcome_and_runs_with_its_request_id():
    metrics = WorkerMetrics()
    metrics.setup()
    labels = {"service": "unittest", "method": "get_deck", "outcome": "refused"}
    before = value("deckyard_rpc_server_duration_seconds_count", **labels)
    ctx = worker(Rpc, "get_deck", request_id="req-1")

    metrics.worker_setup(ctx)
    assert REQUEST_ID.get() == "req-1"
    metrics.worker_result(ctx, None, raised(Conflict("deck_not_found", "no")))
    metrics.worker_teardown(ctx)
    assert REQUEST_ID.get() is None
    assert value("deckyard_rpc_server_duration_seconds_count", **labels) == before + 1


def test_an_event_handler_is_timed_apart_and_a_timer_not_at_all():
    metrics = WorkerMetrics()
    metrics.setup()
    labels = {"service": "unittest", "handler": "on_player_registered", "outcome": "error"}
    before = value("deckyard_event_handler_duration_seconds_count", **labels)
    handler = worker(EventHandler, "on_player_registered")
    metrics.worker_setup(handler)
    assert REQUEST_ID.get() is None  # an event of no request
    metrics.worker_result(handler, None, raised(RuntimeError("fails")))
    metrics.worker_teardown(handler)
    assert value("deckyard_event_handler_duration_seconds_count", **labels) == before + 1

    timer = Worker(SimpleNamespace(method_name="sweep"))
    metrics.worker_setup(timer)
    metrics.worker_result(timer, None, None)
    metrics.worker_teardown(timer)
    names = {s.labels.get("method") for m in REGISTRY.collect() for s in m.samples}
    assert "sweep" not in names


class Pool:
    def __init__(self, size, overflow, out):
        self._size, self._max_overflow, self._out = size, overflow, out

    def size(self):
        return self._size

    def checkedout(self):
        return self._out


def database(pool):
    return SimpleNamespace(engine=SimpleNamespace(pool=pool))


def gauges(*measures):
    provider = ServiceGauges()
    provider.measures = measures
    provider.container = SimpleNamespace(config={}, service_name="unittest")
    provider.setup()
    return provider


def test_the_pool_is_measured_against_what_it_may_open():
    measure_pool("unittest", database(Pool(10, 10, 3)))
    assert value("deckyard_db_pool_max_connections", service="unittest") == 20
    assert value("deckyard_db_pool_in_use_connections", service="unittest") == 3


def test_a_database_that_is_away_is_a_gauge_at_zero_and_one_log_line(caplog):
    def away(service, db):
        raise ServiceUnavailable("database_unavailable", "away")

    provider = gauges(measure_pool, away)
    with caplog.at_level(logging.INFO, logger="shared.health"):
        for _ in range(5):
            provider.measure(database(Pool(5, 5, 0)))
    assert value("deckyard_database_up", service="unittest") == 0
    assert [r.levelname for r in caplog.records] == ["ERROR"]  # throttled: the first only

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="shared.health"):
        gauges(measure_pool).measure(database(Pool(5, 5, 1)))
    assert value("deckyard_database_up", service="unittest") == 1
    assert value("deckyard_metrics_measured_timestamp_seconds", service="unittest") > 0
