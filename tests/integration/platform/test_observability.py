"""Logs and metrics of real nameko services: a refusal is one INFO line with its request's
id; duplicates, retries and parked events are counted; a service measures its outbox."""

from __future__ import annotations

import io
import json
import logging
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
from nameko.standalone.rpc import ClusterRpcProxy
from prometheus_client import REGISTRY

from services.accounts import orm as accounts_orm
from shared.clock import SystemClock
from shared.db import Database, make_engine
from shared.errors import NotFound
from shared.logs import ExpectedRefusals, JsonFormatter, RequestIdFilter
from shared.metrics import measure_outbox
from shared.outbox import OutboxRelay
from tests.helpers import collection_of, publish_event, wait_for
from tests.integration.platform import test_reliable_events as reliable
from tests.integration.platform.test_outbox_and_inbox import registered_event

pytestmark = pytest.mark.integration

flaky = reliable.flaky  # the fixture, where pytest looks for it


def value(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def json_lines():
    """The root logger as ``deckyard run`` configures it (LOG_FORMAT=json), into a buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ExpectedRefusals())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in buffer.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_refusal_is_one_info_line_without_a_traceback_with_its_request_id(
    start_service, settings, json_lines
):
    start_service("cards")
    request_id = f"refused-{uuid.uuid4().hex}"
    config = settings.nameko_config()
    context = {"request_id": request_id}
    with (
        ClusterRpcProxy(config, context_data=context, timeout=10) as rpc,
        pytest.raises(NotFound),
    ):
        rpc.cards.get_deck(player_id=str(uuid.uuid4()), deck_id=str(uuid.uuid4()))
    lines = [line for line in json_lines() if line.get("request_id") == request_id]
    assert lines == [
        {
            "time": lines[0]["time"],
            "level": "INFO",
            "logger": "nameko.containers",
            "message": "refused (404 deck_not_found): you have no deck with this id",
            "service": "cards",  # the worker's (shared/worker_logs.py)
            "request_id": request_id,
        }
    ]
    assert value(
        "deckyard_rpc_server_duration_seconds_count",
        service="cards",
        method="get_deck",
        outcome="refused",
    )


def test_a_duplicate_delivery_is_counted_by_its_consumer(start_service, settings, rpc):
    start_service("cards")
    event = registered_event()
    consumer = {"consumer": "cards.create_collection"}
    before = value("deckyard_inbox_duplicates_total", **consumer)
    publish_event(settings, event)
    wait_for(lambda: collection_of(rpc, str(event.data["player_id"])))
    publish_event(settings, event)
    # A generous wait: on a loaded CI machine the redelivery once took more than 10 s.
    wait_for(lambda: value("deckyard_inbox_duplicates_total", **consumer) == before + 1, 60)


def test_retries_and_parked_events_are_counted_by_queue(flaky, settings):
    queue = {"queue": "evt-reliabletest-Happened--flaky.on_happened"}
    retried = value("deckyard_events_retried_total", **queue)
    parked = value("deckyard_events_parked_total", **queue)
    reliable.send(settings, "always")
    wait_for(lambda: value("deckyard_events_parked_total", **queue) == parked + 1)
    assert value("deckyard_events_retried_total", **queue) == retried + 3  # its 3 delays


def test_a_service_measures_its_database_and_the_relay_counts_what_it_publishes(
    start_service, settings, rpc
):
    start_service("accounts", METRICS_INTERVAL_SECONDS=0.05)
    published = value("deckyard_outbox_published_total", service="accounts")
    rpc.accounts.me(sub=f"auth0|{uuid.uuid4().hex}")  # registers: PlayerRegistered
    wait_for(lambda: value("deckyard_outbox_published_total", service="accounts") > published)
    assert value("deckyard_outbox_relay_delay_seconds_count", service="accounts")
    wait_for(lambda: value("deckyard_database_up", service="accounts") == 1)
    assert value("deckyard_db_pool_max_connections", service="accounts") == 20  # 10 + 10


def test_the_backlog_is_the_unpublished_rows_and_the_lag_the_oldest_ones_age(settings):
    """Measured straight from the outbox, with no relay running to change it meanwhile."""
    engine = make_engine(settings.database_url_for("accounts"), pool_size=1)
    database = Database(engine, accounts_orm.plumbing, now=SystemClock().now)
    outbox = accounts_orm.plumbing.outbox
    row = {
        "event_id": uuid.uuid4(),
        "exchange": "accounts.events",
        "routing_key": "PlayerRegistered",
        "payload": {},
        "created_at": sa.func.now() - timedelta(minutes=10),
    }
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(outbox).values(row))
            waiting = conn.execute(
                sa.select(sa.func.count()).where(outbox.c.published_at.is_(None))
            ).scalar_one()
        measure_outbox("accounts", database)
        assert value("deckyard_outbox_pending", service="accounts") == waiting >= 1
        assert value("deckyard_outbox_oldest_pending_age_seconds", service="accounts") >= 600
    finally:
        with engine.begin() as conn:
            conn.execute(sa.delete(outbox).where(outbox.c.event_id == row["event_id"]))
        engine.dispose()


class BrokerAway:
    def publish(self, payload, **kwargs):
        raise ConnectionRefusedError("broker unreachable")


def test_a_broker_away_is_one_relay_line_not_one_per_round(settings, caplog):
    engine = make_engine(settings.database_url_for("accounts"), pool_size=1)
    database = Database(engine, accounts_orm.plumbing, now=SystemClock().now)
    event = registered_event()
    relay = OutboxRelay(engine, accounts_orm.plumbing, BrokerAway(), service="accounts")
    failures = value("deckyard_outbox_publish_failures_total", service="accounts")
    try:
        with database.transaction() as uow:
            uow.add_event(event)
        with caplog.at_level(logging.INFO, logger="shared.outbox"):
            for _ in range(20):  # twenty rounds in well under the 30 s interval
                relay.relay_once()
        assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
            ("ERROR", "accounts relay publish failed")
        ]
        assert value("deckyard_outbox_publish_failures_total", service="accounts") >= failures + 20
    finally:
        outbox = accounts_orm.plumbing.outbox
        with engine.begin() as conn:
            conn.execute(sa.delete(outbox).where(outbox.c.event_id == event.event_id))
        engine.dispose()
