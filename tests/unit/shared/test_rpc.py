"""Every RPC entrypoint replies through shared.rpc: without publisher confirms, and one
consumer class per container (two would split the service's queue between them)."""

import inspect

import pytest
from nameko.amqp.publish import Publisher
from nameko.rpc import Rpc

from deckyard.registry import service_class
from shared.config import SERVICE_NAMES
from shared.rpc import (
    ReplyingRpc,
    ReplyingRpcConsumer,
    ReplyPublisher,
    ReplyResponder,
    TolerantReplyListener,
)


def rpc_entrypoints(cls):
    for _, member in inspect.getmembers(cls, callable):
        for entrypoint in getattr(member, "nameko_entrypoints", ()):
            if isinstance(entrypoint, Rpc):
                yield entrypoint


@pytest.mark.parametrize("name", SERVICE_NAMES)
def test_every_rpc_entrypoint_of_a_service_replies_through_shared_rpc(name):
    entrypoints = list(rpc_entrypoints(service_class(name)))
    assert entrypoints, "every service answers health over RPC at least"
    assert all(type(e) is ReplyingRpc for e in entrypoints)


def test_replies_are_published_without_confirms_and_requests_keep_theirs():
    assert ReplyResponder.publisher_cls is ReplyPublisher
    assert ReplyPublisher.use_confirms is False
    assert Publisher.use_confirms is True  # nameko's default, which the gateway's calls use
    assert type(ReplyingRpc.rpc_consumer) is ReplyingRpcConsumer


class Message:
    def __init__(self, correlation_id):
        self.properties = {"correlation_id": correlation_id}


class QueueConsumer:
    def __init__(self, error=None):
        self.error, self.acked = error, []

    def ack_message(self, message):
        if self.error is not None:
            raise self.error
        self.acked.append(message)


@pytest.mark.parametrize("broker", [None, ConnectionResetError(104, "reset by peer")])
def test_a_reply_reaches_its_caller_even_when_its_ack_cannot_reach_the_broker(broker):
    """make faults: the gateway died when RabbitMQ restarted between a reply's delivery
    and its acknowledgement; the caller must get the reply and the container live on."""
    listener = TolerantReplyListener()
    listener.queue_consumer = QueueConsumer(broker)
    waiting = listener.get_reply_event("c1")
    listener.handle_message({"result": "pong", "error": None}, Message("c1"))
    assert waiting.ready() and waiting.wait() == {"result": "pong", "error": None}
    listener.handle_message({"result": "late"}, Message("c1"))  # redelivered: nobody waits
    listener.handle_message({"result": "?"}, Message("unknown"))


def test_callers_use_the_tolerant_reply_listener():
    from services.battle.dependencies import CardsRpc

    assert type(CardsRpc.rpc_reply_listener) is TolerantReplyListener
