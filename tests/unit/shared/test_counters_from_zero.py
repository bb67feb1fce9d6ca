"""A service's labelled counters exist at 0 from its start, for every label set it knows:
a series born at 1 shows no increase, so its first event would fire no alert."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from nameko.events import EventHandler
from nameko.rpc import Rpc
from prometheus_client import REGISTRY

from shared.metrics import TRANSACTION_OUTCOMES, WorkerMetrics


def sample(name, **labels):
    return REGISTRY.get_sample_value(name, labels)


def handler(queue):
    point = EventHandler("accounts", "PlayerRegistered")
    point.queue = SimpleNamespace(name=queue)  # as its setup names it
    return point


def test_a_service_starts_its_queues_outbox_and_outcomes_at_zero():
    service = f"zero{uuid.uuid4().hex[:8]}"
    queues = [f"evt-accounts-PlayerRegistered--{service}.on_{n}" for n in ("one", "two")]
    metrics = WorkerMetrics()
    metrics.container = SimpleNamespace(
        service_name=service, entrypoints=[handler(q) for q in queues] + [Rpc()]
    )
    assert sample("deckyard_events_parked_total", queue=queues[0]) is None

    metrics.setup()
    metrics.start()

    for queue in queues:
        assert sample("deckyard_events_parked_total", queue=queue) == 0
        assert sample("deckyard_events_retried_total", queue=queue) == 0
    assert sample("deckyard_outbox_published_total", service=service) == 0
    assert sample("deckyard_outbox_publish_failures_total", service=service) == 0
    for outcome in TRANSACTION_OUTCOMES:  # shared by every service of the process
        assert sample("deckyard_transaction_conflicts_total", outcome=outcome) is not None
