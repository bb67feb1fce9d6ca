"""Which queues become quorum queues, and with what (shared/queues.py)."""

from kombu import Queue

from shared.outbox import declarations
from shared.queues import DELIVERY_LIMIT, consumer_queue_arguments, make_quorum


def test_off_nothing_changes():
    assert consumer_queue_arguments("q", quorum=False) == {}
    _, *queues = declarations("accounts.events", "PlayerRegistered")
    assert queues and all(not q.queue_arguments for q in queues)


def test_a_consumer_queue_has_the_delivery_limit_and_dead_letters_to_its_dead_queue():
    arguments = consumer_queue_arguments("evt-a-B--c.d", quorum=True)
    assert arguments["x-queue-type"] == "quorum"
    assert arguments["x-delivery-limit"] == DELIVERY_LIMIT
    assert arguments["x-dead-letter-exchange"] == ""
    assert arguments["x-dead-letter-routing-key"] == "evt-a-B--c.d.dead"


def test_the_relay_declares_the_consumers_queues_as_their_handlers_do():
    _, *queues = declarations("accounts.events", "PlayerRegistered", quorum=True)
    for queue in queues:
        assert queue.queue_arguments == consumer_queue_arguments(queue.name, quorum=True)


def test_exclusive_and_auto_deleted_queues_stay_classic():
    quorum = {"x-queue-type": "quorum"}
    for queue in (Queue("r", exclusive=True), Queue("r", auto_delete=True)):
        make_quorum(queue, quorum)
        assert not queue.queue_arguments
    durable = Queue("rpc-x", durable=True, queue_arguments={"x-expires": 1})
    make_quorum(durable, quorum)
    assert durable.queue_arguments == {"x-expires": 1, "x-queue-type": "quorum"}
