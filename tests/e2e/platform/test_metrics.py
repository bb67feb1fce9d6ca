"""Every process serves Prometheus metrics: the gateway on its status port, a service on
its health port; and a request's id reaches the events it causes and their consumers' logs
(docs/operations.md)."""

from __future__ import annotations

import logging
import uuid

import pytest
import requests
import sqlalchemy as sa

from deckyard.api_client import ApiClient
from tests.conftest import http_port, status_port
from tests.helpers import scrape, series, wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

QUICK_GAUGES = {"METRICS_INTERVAL_SECONDS": 0.1}


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        from shared.logs import RequestIdFilter

        self.addFilter(RequestIdFilter())
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def worker_logs():
    """Every record of nameko's containers (their workers' debug lines included)."""
    logger = logging.getLogger("nameko.containers")
    handler, level = Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler.records
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def metered(start_service):
    """accounts and cards measuring their gauges often, and a gateway."""
    containers = {name: start_service(name, **QUICK_GAUGES) for name in ("accounts", "cards")}
    containers["gateway"] = start_service("gateway")
    return containers


def test_the_gateway_counts_requests_by_route_template_and_rpcs_by_outcome(metered, settings):
    gateway = metered["gateway"]
    api = ApiClient(f"http://127.0.0.1:{http_port(gateway)}", settings)
    token = api.token(random_sub())
    deck = str(uuid.uuid4())
    assert api.get("/me", token=token).status_code == 200
    assert api.get("/me", token="not-a-token").status_code == 401
    assert api.get(f"/quest/decks/{deck}", token=token).status_code == 404
    assert api.get("/no/such/route").status_code == 404

    samples = scrape(f"http://127.0.0.1:{status_port(gateway)}/metrics")
    requests_total = "deckyard_http_requests_total"
    assert series(samples, requests_total, route="/me", method="GET", status="200") == [1.0]
    assert series(samples, requests_total, route="/me", method="GET", status="401") == [1.0]
    decks = "/quest/decks/<uuid:deck_id>"
    assert series(samples, requests_total, route=decks, method="GET", status="404") == [1.0]
    assert series(samples, requests_total, route="<no route>", status="404") == [1.0]
    assert not [key for key in samples if deck in str(key)]  # templates, never paths
    durations = "deckyard_http_request_duration_seconds_count"
    assert series(samples, durations, route="/me", method="GET") == [2.0]
    assert series(samples, "deckyard_http_requests_in_flight") == [0.0]

    rpc = "deckyard_rpc_client_duration_seconds_count"
    assert sum(series(samples, rpc, service="accounts", outcome="ok")) >= 1
    assert sum(series(samples, rpc, service="cards", outcome="refused")) == 1
    assert series(samples, "deckyard_broker_up") == [1.0]
    assert series(samples, "deckyard_push_connections") == [0.0]

    public = requests.get(f"http://127.0.0.1:{http_port(gateway)}/metrics", timeout=5)
    assert public.status_code == 404 and requests_total not in public.text


def test_a_service_serves_its_rpc_outbox_pool_and_consumer_series(metered, settings):
    api = ApiClient(f"http://127.0.0.1:{http_port(metered['gateway'])}", settings)
    assert api.me(random_sub()).status_code == 200  # PlayerRegistered: cards consumes it
    accounts = f"http://127.0.0.1:{http_port(metered['accounts'])}/metrics"
    cards = f"http://127.0.0.1:{http_port(metered['cards'])}/metrics"

    def measured():
        samples = scrape(accounts)
        published = series(samples, "deckyard_outbox_published_total", service="accounts")
        return samples if published and series(samples, "deckyard_outbox_pending") else None

    samples = wait_for(measured)
    server = "deckyard_rpc_server_duration_seconds_count"
    assert sum(series(samples, server, service="accounts", outcome="ok")) >= 1
    assert series(samples, "deckyard_database_up", service="accounts") == [1.0]
    assert series(samples, "deckyard_db_pool_max_connections", service="accounts")[0] > 0
    assert series(samples, "deckyard_db_pool_in_use_connections", service="accounts")
    assert series(samples, "deckyard_outbox_oldest_pending_age_seconds", service="accounts")

    handled = "deckyard_event_handler_duration_seconds_count"
    cards_samples = wait_for(
        lambda: (s := scrape(cards)) and series(s, handled, service="cards", outcome="ok") and s
    )
    assert series(cards_samples, "deckyard_database_up", service="cards") == [1.0]


def test_a_request_id_reaches_the_event_it_causes_and_its_consumer(metered, settings, worker_logs):
    api = ApiClient(f"http://127.0.0.1:{http_port(metered['gateway'])}", settings)
    request_id = f"trace-{uuid.uuid4().hex}"
    token = api.token(random_sub())
    answer = api.get("/me", token=token, headers={"X-Request-ID": request_id})
    assert answer.status_code == 200 and answer.headers["X-Request-ID"] == request_id

    engine = sa.create_engine(settings.database_url_for("accounts"))
    try:
        with engine.connect() as conn:
            types = conn.execute(
                sa.text("SELECT payload->>'type' FROM outbox WHERE payload->>'request_id' = :r"),
                {"r": request_id},
            ).scalars()
            assert list(types) == ["PlayerRegistered"]
    finally:
        engine.dispose()

    def consumed():
        return [
            r
            for r in worker_logs
            if r.request_id == request_id and "cards.on_player_registered" in r.getMessage()
        ]

    assert wait_for(consumed)
