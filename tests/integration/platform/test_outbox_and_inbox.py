"""The outbox commits with the state change and reaches the broker; consumers apply once."""

import uuid
from datetime import UTC, datetime

import eventlet
import pytest
from kombu import Connection, Exchange, Queue
from sqlalchemy import func, insert, select, text

from deckyard.dead_letters import list_parked
from services.accounts.orm import plumbing as accounts_plumbing
from services.cards.orm import collections
from shared.clock import SystemClock
from shared.db import Database, make_engine
from shared.events import PLAYER_REGISTERED, new_event
from shared.outbox import OutboxRelay, nameko_publisher
from tests.helpers import wait_for

pytestmark = pytest.mark.integration


@pytest.fixture
def accounts_db(settings):
    engine = make_engine(settings.database_url_for("accounts"))
    yield Database(engine, accounts_plumbing, SystemClock().now)
    engine.dispose()


def registered_event(player_id=None):
    return new_event(
        PLAYER_REGISTERED,
        {"player_id": player_id or uuid.uuid4(), "registered_at": datetime.now(UTC)},
        occurred_at=datetime.now(UTC),
    )


def outbox_row(db, event_id):
    outbox = db.plumbing.outbox
    with db.read() as session:
        return session.execute(select(outbox).where(outbox.c.event_id == event_id)).first()


class BrokerAway:
    def publish(self, payload, **kwargs):
        raise ConnectionRefusedError("broker unreachable")


def test_an_event_and_its_state_change_roll_back_together(accounts_db):
    event = registered_event()
    with pytest.raises(RuntimeError), accounts_db.transaction() as uow:
        uow.add_event(event)
        raise RuntimeError("the business change failed")
    assert outbox_row(accounts_db, event.event_id) is None


def test_a_failed_publish_stays_pending_and_is_retried(accounts_db, settings):
    event = registered_event()
    with accounts_db.transaction() as uow:
        uow.add_event(event)

    OutboxRelay(accounts_db.engine, accounts_db.plumbing, BrokerAway()).relay_once()
    row = outbox_row(accounts_db, event.event_id)
    assert row.published_at is None
    assert row.attempts >= 1
    assert "unreachable" in row.last_error

    relay = OutboxRelay(
        accounts_db.engine,
        accounts_db.plumbing,
        nameko_publisher(settings.amqp_uri),
        quorum=settings.quorum_queues,  # declares the consumers' queues as their handlers do
    )
    with bound_queue(settings, "accounts.events", "PlayerRegistered"):
        relay.relay_all()
    assert outbox_row(accounts_db, event.event_id).published_at is not None


class bound_queue:  # noqa: N801 - used as a context manager, reads like one
    """A temporary queue bound to an events exchange, to receive what is published."""

    def __init__(self, settings, exchange_name, routing_key):
        self.connection = Connection(settings.amqp_uri)
        exchange = Exchange(exchange_name, type="topic", durable=True)
        self.queue = Queue(
            f"test-{uuid.uuid4().hex}", exchange=exchange, routing_key=routing_key, auto_delete=True
        )

    def __enter__(self):
        self.bound = self.queue(self.connection.default_channel)
        self.bound.declare()
        return self.bound

    def __exit__(self, *exc):
        self.bound.delete()
        self.connection.release()


def test_an_event_no_queue_receives_stays_pending_until_one_is_bound(accounts_db, settings):
    source = f"nobody{uuid.uuid4().hex[:6]}"
    event_id = uuid.uuid4()
    outbox = accounts_db.plumbing.outbox
    with accounts_db.transaction() as uow:
        uow.session.execute(
            insert(outbox).values(
                event_id=event_id,
                exchange=f"{source}.events",
                routing_key="NothingHappened",
                payload={"event_id": str(event_id)},
                created_at=datetime.now(UTC),
            )
        )
    relay = OutboxRelay(
        accounts_db.engine,
        accounts_db.plumbing,
        nameko_publisher(settings.amqp_uri),
        quorum=settings.quorum_queues,  # declares the consumers' queues as their handlers do
    )

    relay.relay_all()
    row = outbox_row(accounts_db, event_id)
    assert row.published_at is None
    assert "no queue" in row.last_error

    with bound_queue(settings, f"{source}.events", "NothingHappened") as queue:
        relay.relay_all()
        message = queue.get(no_ack=True)
    assert outbox_row(accounts_db, event_id).published_at is not None
    assert message is not None
    assert message.properties["message_id"] == str(event_id)


def count_collections(settings, player_id, message_ids=()):
    """The player's collections, and how many of ``message_ids`` cards recorded as processed
    (only these: other tests' messages may be processed by the same database meanwhile)."""
    engine = make_engine(settings.database_url_for("cards"))
    with engine.connect() as conn:
        count = conn.execute(
            select(func.count()).where(collections.c.player_id == player_id)
        ).scalar_one()
        processed = conn.execute(
            text("SELECT count(*) FROM processed_messages WHERE message_id = ANY(:ids)"),
            {"ids": list(message_ids)},
        ).scalar_one()
    engine.dispose()
    return count, processed


def test_a_redelivered_event_is_applied_once(start_service, settings, accounts_db):
    start_service("cards")
    player_id = uuid.uuid4()
    event = registered_event(player_id)
    publisher = nameko_publisher(settings.amqp_uri)
    exchange = Exchange("accounts.events", type="topic", durable=True)
    for _ in range(3):  # the same message three times, as an at-least-once broker may
        publisher.publish(
            event.to_message(), exchange=exchange, routing_key="PlayerRegistered", mandatory=True
        )
    # A marker published after the duplicates: once it is applied, the duplicates
    # ahead of it in the queue have been delivered too (no fixed sleep).
    marker = uuid.uuid4()
    marker_event = registered_event(marker)
    publisher.publish(
        marker_event.to_message(),
        exchange=exchange,
        routing_key="PlayerRegistered",
        mandatory=True,
    )
    with eventlet.Timeout(30):
        while count_collections(settings, marker)[0] == 0:
            eventlet.sleep(0.05)
    # One collection, and one inbox record for the three copies (plus the marker's).
    assert count_collections(settings, player_id, [event.event_id, marker_event.event_id]) == (1, 2)


def test_a_malformed_event_is_parked_not_looped(start_service, settings):
    container = start_service("cards")
    publisher = nameko_publisher(settings.amqp_uri)
    exchange = Exchange("accounts.events", type="topic", durable=True)
    publisher.publish(
        {"garbage": True}, exchange=exchange, routing_key="PlayerRegistered", mandatory=True
    )
    player_id = uuid.uuid4()
    publisher.publish(
        registered_event(player_id).to_message(),
        exchange=exchange,
        routing_key="PlayerRegistered",
        mandatory=True,
    )
    # The good message behind the bad one is still applied: the queue is not stuck.
    with eventlet.Timeout(30):
        while count_collections(settings, player_id)[0] == 0:
            eventlet.sleep(0.05)
    assert container.max_workers  # container still running
    # The bad one is parked, once, for an operator: neither dropped nor retried.
    queue = "evt-accounts-PlayerRegistered--cards.on_player_registered"
    parked = wait_for(lambda: list_parked(settings.amqp_uri, [queue]))
    assert [p.attempts for p in parked] == [1]
    assert "malformed PlayerRegistered" in parked[0].error


def test_an_event_awaiting_its_first_consumer_is_kept_and_not_tried(
    accounts_db, settings, monkeypatch
):
    # No contract awaits its consumers today; a future one would be listed like this.
    monkeypatch.setattr("shared.outbox.AWAITING_CONSUMERS", frozenset({"SomethingPlanned"}))
    event_id = uuid.uuid4()
    outbox = accounts_db.plumbing.outbox
    with accounts_db.transaction() as uow:
        uow.session.execute(
            insert(outbox).values(
                event_id=event_id,
                exchange="challenge.events",
                routing_key="SomethingPlanned",
                payload={"event_id": str(event_id)},
                created_at=datetime.now(UTC),
            )
        )
    relay = OutboxRelay(accounts_db.engine, accounts_db.plumbing, BrokerAway())
    relay.relay_all()
    row = outbox_row(accounts_db, event_id)
    assert row.published_at is None
    assert row.attempts == 0 and row.last_error is None
