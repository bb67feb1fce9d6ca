"""Each event contract names exactly the nameko handlers that consume it."""

import inspect

from nameko.events import EventHandler

from deckyard.registry import SERVICE_CLASSES, service_class
from shared.events import AWAITING_CONSUMERS, CONTRACTS
from shared.outbox import declarations
from shared.push import PUSH_QUEUE


def handlers_in_code():
    found = set()
    for name in SERVICE_CLASSES:
        cls = service_class(name)
        for method_name, method in inspect.getmembers(cls, inspect.isfunction):
            for entrypoint in getattr(method, "nameko_entrypoints", ()):
                if isinstance(entrypoint, EventHandler):
                    found.add(
                        (
                            entrypoint.source_service,
                            entrypoint.event_type,
                            f"{cls.name}.{method_name}",
                        )
                    )
    return found


def handlers_in_contracts():
    return {
        (contract.source, contract.name, consumer)
        for contract in CONTRACTS.values()
        for consumer in contract.consumers
    }


def test_contracts_list_every_event_handler_and_nothing_else():
    assert handlers_in_code() == handlers_in_contracts()


def test_every_contract_has_a_consumer_or_is_known_to_await_one():
    """A consumer is a service's handler or the gateways' push stream (shared/push.py)."""
    without = {
        name for name, contract in CONTRACTS.items() if not (contract.consumers or contract.gateway)
    }
    assert without == AWAITING_CONSUMERS


def test_the_relay_declares_the_push_stream_for_what_the_gateways_read():
    exchange, *queues = declarations("battle.events", "MatchUpdated")
    assert exchange.name == "battle.events"
    [stream] = queues
    assert stream.name == PUSH_QUEUE
    assert stream.queue_arguments["x-queue-type"] == "stream"
    assert stream.durable and not stream.auto_delete and not stream.exclusive


def test_the_relay_declares_the_queues_nameko_consumes_from():
    exchange, *queues = declarations("authoring.events", "ContentPublished")
    assert exchange.name == "authoring.events"
    assert {q.name for q in queues} == {
        "evt-authoring-ContentPublished--cards.on_content_published",
        "evt-authoring-ContentPublished--challenge.on_content_published",
    }
    assert all(
        q.durable and not q.auto_delete and q.routing_key == "ContentPublished" for q in queues
    )


def test_an_unknown_event_type_declares_only_its_exchange():
    assert [d.name for d in declarations("nobody.events", "Nothing")] == ["nobody.events"]
