"""A failing event handler retries with backoff, then parks the message; nothing is lost."""

import uuid

import pytest
from kombu import Connection, Exchange

from shared.reliable_events import (
    ATTEMPTS_HEADER,
    ERROR_HEADER,
    UnprocessableMessage,
    dead_letter_queue,
    reliable_event_handler,
)
from tests.helpers import wait_for

pytestmark = pytest.mark.integration

SOURCE = "reliabletest"
FAST = [30, 30, 30]  # ms: three retries, then the dead-letter queue


class Flaky:
    """What the handler does with each message id: fail N times, or always, or refuse."""

    plan: dict = {}
    calls: dict = {}


class FlakyService:
    name = "flaky"

    @reliable_event_handler(SOURCE, "Happened")
    def on_happened(self, body):
        key = body["id"]
        Flaky.calls[key] = Flaky.calls.get(key, 0) + 1
        plan = Flaky.plan.get(key, 0)
        if plan == "unprocessable":
            raise UnprocessableMessage("not a Happened message")
        if plan == "always" or Flaky.calls[key] <= plan:
            raise RuntimeError(f"failure {Flaky.calls[key]}")


@pytest.fixture
def flaky(container_factory, settings):
    container = container_factory(FlakyService, settings.nameko_config(EVENT_RETRY_DELAYS_MS=FAST))
    container.start()
    return container


def send(settings, plan):
    key = str(uuid.uuid4())
    Flaky.plan[key] = plan
    with Connection(settings.amqp_uri) as conn:
        producer = conn.Producer(serializer="json")
        producer.publish(
            {"id": key},
            exchange=Exchange(f"{SOURCE}.events", type="topic", durable=True),
            routing_key="Happened",
            declare=[Exchange(f"{SOURCE}.events", type="topic", durable=True)],
        )
    return key


def dead_letters(settings):
    queue = dead_letter_queue(f"evt-{SOURCE}-Happened--flaky.on_happened", settings.quorum_queues)
    found = []
    with Connection(settings.amqp_uri) as conn:
        bound = queue(conn.default_channel)
        bound.declare()
        while (message := bound.get(no_ack=False)) is not None:
            found.append((message.payload, message.headers))
            message.ack()
    return found


def test_a_passing_failure_is_retried_until_it_succeeds(flaky, settings):
    key = send(settings, 2)
    wait_for(lambda: Flaky.calls.get(key) == 3)
    # Its own message only: the module's queue may still hold another test's parked one.
    assert [payload for payload, _ in dead_letters(settings) if payload == {"id": key}] == []


def test_a_handler_that_keeps_failing_parks_the_message_with_its_error(flaky, settings):
    key = send(settings, "always")
    wait_for(lambda: Flaky.calls.get(key) == len(FAST) + 1)
    parked = wait_for(lambda: dead_letters(settings))
    [(payload, headers)] = parked
    assert payload == {"id": key}
    assert headers[ATTEMPTS_HEADER] == len(FAST) + 1
    assert "RuntimeError: failure 4" in headers[ERROR_HEADER]


def test_an_unprocessable_message_is_parked_at_once(flaky, settings):
    key = send(settings, "unprocessable")
    [(payload, headers)] = wait_for(lambda: dead_letters(settings))
    assert payload == {"id": key} and headers[ATTEMPTS_HEADER] == 1
    assert Flaky.calls[key] == 1


def test_the_operator_lists_a_parked_message_and_replays_it_once_fixed(flaky, settings):
    from deckyard.dead_letters import list_parked, replay

    queue = f"evt-{SOURCE}-Happened--flaky.on_happened"
    key = send(settings, "unprocessable")
    [parked] = wait_for(lambda: list_parked(settings.amqp_uri, [queue]))
    assert parked.attempts == 1 and "not a Happened message" in parked.error
    assert len(list_parked(settings.amqp_uri, [queue])) == 1  # listing removes nothing

    Flaky.plan[key] = 0  # the cause is fixed
    assert replay(settings.amqp_uri, [queue]) == 1
    wait_for(lambda: Flaky.calls[key] == 2)
    assert list_parked(settings.amqp_uri, [queue]) == []


def test_listing_a_queue_that_never_parked_anything_is_empty(settings):
    from deckyard.dead_letters import list_parked

    assert list_parked(settings.amqp_uri, [f"evt-nothing-{uuid.uuid4().hex}"]) == []
