"""A service whose RPC reply cannot reach the broker keeps serving (bench/faults/).

Found by the fault runner: during a RabbitMQ restart, accounts, battle and cards
exited for good. nameko publishes an RPC reply in the worker's green thread,
after the method returned and outside its error handling; the publish raised
``OperationalError: ECONNREFUSED`` and the container killed itself. The
containers ``deckyard run`` starts (``deckyard.runner.BrokerTolerantContainer``)
log the lost reply instead. Here the reply's publisher fails once, the broker
itself stays up (the shared one is never restarted by a test).
"""

import uuid

import pytest
from kombu.exceptions import OperationalError
from nameko.containers import ServiceContainer
from nameko.exceptions import RpcTimeout
from nameko.rpc import Responder, rpc
from nameko.standalone.rpc import ClusterRpcProxy

from deckyard.runner import CONTAINER_CLASS, BrokerTolerantContainer, container_config

pytestmark = pytest.mark.integration


class EchoService:
    name = f"echo_{uuid.uuid4().hex[:8]}"  # its own RPC queue

    @rpc
    def echo(self, value):
        return value


@pytest.fixture
def lost_first_reply(monkeypatch):
    """The next RPC reply fails to publish as it does while the broker is down."""
    failures = []
    real = Responder.publisher_cls

    class FailingOnce(real):
        def publish(self, payload, **kwargs):
            if not failures:
                failures.append(payload)
                raise OperationalError("[Errno 111] ECONNREFUSED")
            return super().publish(payload, **kwargs)

    monkeypatch.setattr(Responder, "publisher_cls", FailingOnce)
    return failures


def start(container_factory, settings, container_cls):
    config = settings.nameko_config(SERVICE_CONTAINER_CLS=container_cls)
    container = container_factory(EchoService, config)
    container.start()
    return container


def test_deckyard_run_starts_the_broker_tolerant_container(settings):
    for service in ("accounts", "battle"):  # the gateway is no nameko container any more
        config = container_config(settings, service, 0, True)
        assert config["SERVICE_CONTAINER_CLS"] == CONTAINER_CLASS
    assert CONTAINER_CLASS == "deckyard.runner.BrokerTolerantContainer"


def test_a_lost_reply_costs_the_caller_a_timeout_and_the_service_keeps_serving(
    container_factory, settings, lost_first_reply
):
    container = start(container_factory, settings, CONTAINER_CLASS)
    assert isinstance(container, BrokerTolerantContainer)
    with ClusterRpcProxy(settings.nameko_config(), timeout=3) as proxy:
        service = getattr(proxy, EchoService.name)
        with pytest.raises(RpcTimeout):
            service.echo("lost")
        assert lost_first_reply == [{"result": "lost", "error": None}]
        assert not container._died.ready()
        assert service.echo("answered") == "answered"


def test_stock_nameko_dies_of_the_same_lost_reply(container_factory, settings, lost_first_reply):
    """Why the runner needs its own container class: nameko's own one kills itself."""
    container = start(container_factory, settings, "nameko.containers.ServiceContainer")
    assert type(container) is ServiceContainer
    with ClusterRpcProxy(settings.nameko_config(), timeout=3) as proxy, pytest.raises(RpcTimeout):
        getattr(proxy, EchoService.name).echo("lost")
    assert container._died.ready()
    with pytest.raises(OperationalError):
        container.wait()
