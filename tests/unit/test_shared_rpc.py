"""Every RPC entrypoint replies through shared.rpc: without publisher confirms, and one
consumer class per container (two would split the service's queue between them)."""

import inspect

import pytest
from nameko.amqp.publish import Publisher
from nameko.rpc import Rpc

from deckyard.registry import service_class
from shared.config import SERVICE_NAMES
from shared.rpc import ReplyingRpc, ReplyingRpcConsumer, ReplyPublisher, ReplyResponder


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
