"""What a service's workers log (shared/worker_logs.py): each JSON line names the service and
the span of the worker that wrote it, and a failing timer is one traceback then a count."""

from __future__ import annotations

import uuid
from typing import Any

import eventlet
import pytest
from nameko.rpc import rpc
from nameko.standalone.rpc import ClusterRpcProxy
from nameko.testing.services import entrypoint_hook
from nameko.timer import timer

from deckyard.registry import service_class
from shared import tracing
from shared.errors import NotFound
from shared.worker_logs import WorkerLogs
from tests.e2e.platform.test_tracing import collector  # noqa: F401  (the fixture)
from tests.helpers import wait_for
from tests.log_capture import json_lines

pytestmark = pytest.mark.integration

SERVICES = ("accounts", "authoring", "battle", "cards", "challenge")


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_carries_the_worker_logs(name):
    assert isinstance(service_class(name).worker_logs, WorkerLogs)


@pytest.fixture
def traced_cards(collector, start_service):  # noqa: F811
    assert tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": collector.url})
    try:
        yield start_service("cards")
    finally:
        tracing.shutdown()


def test_a_line_written_in_a_traced_rpc_names_its_service_trace_and_span(
    traced_cards,
    collector,  # noqa: F811
    settings,
):
    """Five refusals at once, each in its own worker (green thread): each line carries
    its own worker's span, none another's."""
    request_ids = [f"logged-{uuid.uuid4().hex}" for _ in range(5)]

    def refused(request_id: str) -> None:
        context = {"request_id": request_id}
        config = settings.nameko_config()
        with (
            ClusterRpcProxy(config, context_data=context, timeout=10) as proxy,
            pytest.raises(NotFound),
        ):
            proxy.cards.get_deck(player_id=str(uuid.uuid4()), deck_id=str(uuid.uuid4()))

    with json_lines() as lines:
        for thread in [eventlet.spawn(refused, request_id) for request_id in request_ids]:
            thread.wait()
        written = lines()

    def spans() -> dict[str, Any] | None:
        tracing.flush()
        found = {
            s.attributes.get("deckyard.request_id"): s
            for s in collector.spans
            if s.name == "cards.get_deck"
        }
        return found if set(request_ids) <= set(found) else None

    served = wait_for(spans, timeout=30)
    for request_id in request_ids:
        [line] = [line for line in written if line.get("request_id") == request_id]
        assert line["message"].startswith("refused (404 deck_not_found)")
        assert line["service"] == "cards"
        span = served[request_id]
        assert (line["trace_id"], line["span_id"]) == (span.trace_id, span.span_id)
    outside = [line for line in written if not line.get("request_id")]
    assert all("trace_id" not in line and "service" not in line for line in outside)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


CLOCK = Clock()


class Sweeper:
    """A service with a timer that fails while ``failing`` says so."""

    name = "sweeper_logs_test"
    failing = True
    worker_logs = WorkerLogs(monotonic=CLOCK)

    @timer(interval=3600)  # never by itself in the test: each tick is the test's
    def sweep(self) -> None:
        if Sweeper.failing:
            raise ConnectionError("the database is away")

    @rpc
    def ping(self) -> str:
        return "pong"


def test_a_timer_failing_ten_times_logs_one_traceback_then_a_count_then_its_recovery(
    container_factory, settings
):
    container = container_factory(Sweeper, settings.nameko_config())
    container.start()
    Sweeper.failing = True
    with json_lines() as lines:
        for tick in range(10):  # every 5 s, as the sweepers run
            CLOCK.now = 1000.0 + 5 * tick
            with entrypoint_hook(container, "sweep") as sweep, pytest.raises(ConnectionError):
                sweep()
        Sweeper.failing = False
        with entrypoint_hook(container, "sweep") as sweep:
            sweep()
        written = lines()
    about_the_timer = [line for line in written if "sweep" in line["message"]]
    first, count, recovered = about_the_timer  # and nothing else: nameko's own are dropped
    assert first["message"] == "sweeper_logs_test.sweep (timer) failed"
    assert first["service"] == "sweeper_logs_test" and first["level"] == "ERROR"
    assert "ConnectionError: the database is away" in first["exception"]
    assert count["message"].startswith("sweeper_logs_test.sweep (timer) still failing: 7 times")
    assert count["message"].endswith("(the last: the database is away)")
    assert "exception" not in count
    assert recovered["message"].startswith(
        "sweeper_logs_test.sweep (timer) works again after 10 failure(s) since "
    )
    assert sum("Traceback" in line.get("exception", "") for line in written) == 1
