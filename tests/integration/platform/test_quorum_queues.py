"""With QUORUM_QUEUES=1 the services' queues are quorum queues (they survive a broker node's
loss), RPC and events work as before, and a message is parked in ``<queue>.dead`` both by
its failing handler and, past the broker's delivery limit, by the broker itself
(shared/queues.py, docs/reliability.md "Quorum queues").

On the real RabbitMQ, in a vhost of its own: a queue's type is fixed when first declared,
and the suite's vhost may hold the same queues as classic ones."""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from dataclasses import replace
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
from kombu import Connection, Exchange
from nameko.standalone.rpc import ClusterRpcProxy

from deckyard.dead_letters import list_parked, replay
from shared.queues import DELIVERY_LIMIT
from shared.reliable_events import ATTEMPTS_HEADER, dead_letter_queue, reliable_event_handler
from tests.helpers import collection_of, wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration

SOURCE = "quorumtest"
QUEUE = f"evt-{SOURCE}-Happened--limited.on_happened"


def rabbitmqctl(*args: str) -> str:
    assert shutil.which("rabbitmqctl"), "these tests read queue types with rabbitmqctl"
    return subprocess.run(
        ["rabbitmqctl", "-q", *args], capture_output=True, text=True, check=True, timeout=60
    ).stdout


@pytest.fixture
def quorum_settings(settings):
    vhost = f"deckyard-quorum-{uuid.uuid4().hex[:10]}"
    user = urlsplit(settings.amqp_uri).username or "guest"
    rabbitmqctl("add_vhost", vhost)
    rabbitmqctl("set_permissions", "-p", vhost, user, ".*", ".*", ".*")
    uri = urlunsplit(urlsplit(settings.amqp_uri)._replace(path="/" + quote(vhost, safe="")))
    yield replace(settings, amqp_uri=uri, quorum_queues=True)
    rabbitmqctl("delete_vhost", vhost)


def queue_types(settings) -> dict[str, str]:
    vhost = urlsplit(settings.amqp_uri).path.lstrip("/")
    listed = rabbitmqctl("list_queues", "-p", vhost, "--no-table-headers", "name", "type")
    return dict(line.split("\t") for line in listed.splitlines() if line.strip())


class Calls:
    plan: dict = {}
    count: dict = {}


class LimitedService:
    name = "limited"

    @reliable_event_handler(SOURCE, "Happened")
    def on_happened(self, body):
        key = body["id"]
        Calls.count[key] = Calls.count.get(key, 0) + 1
        if Calls.plan.get(key) == "always":
            raise RuntimeError(f"failure {Calls.count[key]}")


def send(settings, plan=None) -> str:
    key = str(uuid.uuid4())
    Calls.plan[key] = plan
    exchange = Exchange(f"{SOURCE}.events", type="topic", durable=True)
    with Connection(settings.amqp_uri) as conn:
        conn.Producer(serializer="json").publish(
            {"id": key}, exchange=exchange, routing_key="Happened", declare=[exchange]
        )
    return key


def test_the_services_queues_are_quorum_queues_and_rpc_and_events_still_work(
    quorum_settings, start_service
):
    for name in ("accounts", "cards"):
        start_service(name, settings_override=quorum_settings)
    with ClusterRpcProxy(quorum_settings.nameko_config(), timeout=30) as rpc:
        player = rpc.accounts.me(sub=random_sub())  # PlayerRegistered: cards consumes it
        assert wait_for(lambda: collection_of(rpc, player["id"]), timeout=60)
        types = queue_types(quorum_settings)

    consumer = "evt-accounts-PlayerRegistered--cards.on_player_registered"
    assert types["rpc-accounts"] == types["rpc-cards"] == "quorum"
    assert types[consumer] == types[f"{consumer}.dead"] == "quorum"
    replies = [name for name in types if name.startswith("rpc.reply-")]
    assert replies and {types[name] for name in replies} == {"classic"}  # auto-deleted


def test_a_handler_that_keeps_failing_parks_the_message_in_a_quorum_dead_letter_queue(
    quorum_settings, container_factory
):
    config = quorum_settings.nameko_config(EVENT_RETRY_DELAYS_MS=[30, 30])
    container_factory(LimitedService, config).start()
    key = send(quorum_settings, "always")
    [parked] = wait_for(lambda: list_parked(quorum_settings.amqp_uri, [QUEUE]), timeout=60)
    assert parked.attempts == 3 and "RuntimeError: failure 3" in parked.error
    types = queue_types(quorum_settings)
    assert types[QUEUE] == types[f"{QUEUE}.retry.1"] == types[f"{QUEUE}.dead"] == "quorum"
    assert Calls.count[key] == 3


def test_a_message_never_settled_is_dead_lettered_by_the_broker_past_its_delivery_limit(
    quorum_settings, container_factory
):
    config = quorum_settings.nameko_config()
    container = container_factory(LimitedService, config)
    container.start()  # declares the queue with its limit, and its dead-letter queue
    container.stop()  # no consumer: the message waits for the "consumers" below
    key = send(quorum_settings)

    # Each delivery ends unsettled, as when a consumer dies holding the message.
    deliveries = 0
    with Connection(quorum_settings.amqp_uri) as conn:
        channel = conn.default_channel
        while (message := channel.basic_get(QUEUE, no_ack=False)) is not None:
            assert json.loads(message.body) == {"id": key}
            deliveries += 1
            channel.basic_reject(message.delivery_tag, requeue=True)
            assert deliveries <= 2 * DELIVERY_LIMIT, "the broker never dead-lettered it"
    assert deliveries == DELIVERY_LIMIT + 1

    [parked] = wait_for(lambda: list_parked(quorum_settings.amqp_uri, [QUEUE]), timeout=60)
    assert "delivery limit" in parked.error and parked.attempts == 0
    with Connection(quorum_settings.amqp_uri) as conn:
        dead = dead_letter_queue(QUEUE, quorum=True)(conn.default_channel)
        message = dead.get(no_ack=False)
        assert message.headers["x-death"][0]["reason"] == "delivery_limit"
        assert ATTEMPTS_HEADER not in message.headers  # no handler saw it fail
        message.requeue()

    # Replayed once a consumer is back: processed once, as any parked message.
    container_factory(LimitedService, config).start()
    assert replay(quorum_settings.amqp_uri, [QUEUE]) == 1
    wait_for(lambda: Calls.count.get(key) == 1, timeout=60)
    assert list_parked(quorum_settings.amqp_uri, [QUEUE]) == []
