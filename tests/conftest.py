"""Fixtures for every tier. The eventlet monkey-patch comes first, as nameko needs.

Unit tests need nothing running. Integration and e2e tests get a real
PostgreSQL/PostGIS and RabbitMQ through ``shared.testing`` (see its docstring
for where they come from and when a missing one fails rather than skips).
"""

import eventlet

eventlet.monkey_patch()  # must precede every socket-using import

import os  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402
from nameko.standalone.rpc import ClusterRpcProxy  # noqa: E402
from nameko.testing.services import replace_dependencies  # noqa: E402
from nameko.web.server import WebServer  # noqa: E402

from deckyard import engines  # noqa: E402
from deckyard.registry import service_class  # noqa: E402
from shared.db import use_cooperative_psycopg  # noqa: E402
from shared.testing import ServicesUnavailable, isolated_stack, services_required  # noqa: E402
from tests.gateway_process import GatewayProcess  # noqa: E402
from tests.sharding import (  # noqa: E402, F401
    pytest_collection_modifyitems,
    pytest_runtest_logreport,
    pytest_sessionfinish,
)

use_cooperative_psycopg()


def pytest_configure(config: pytest.Config) -> None:
    # A compiled engine built from other sources would test code that is not the one in
    # games/ (deckyard/engines.py): stop at once and say how to fix it.
    if engines.state() == "stale":
        raise pytest.UsageError(
            "games/ changed since its engines were compiled: `make engines` "
            "(or `python -m deckyard.engines --clean` to run them as Python)"
        )


# No timed assertions: Hypothesis' per-example deadline and its "too slow" health check
# fail tests on a shared, loaded machine for the machine's sake, not the code's.
hypothesis_settings.register_profile(
    "deckyard", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("deckyard")
os.environ.setdefault("DEV_AUTH", "1")


@pytest.fixture(scope="session")
def stack():
    try:
        with isolated_stack() as test_stack:
            yield test_stack
    except ServicesUnavailable as exc:
        if services_required():
            pytest.fail(f"services required (CI/REQUIRE_SERVICES set): {exc}", pytrace=False)
        pytest.skip(f"needs PostgreSQL and RabbitMQ: {exc}")


@pytest.fixture(scope="session")
def settings(stack):
    return stack.settings


@pytest.fixture
def start_gateway(settings):
    """Start gateways (``python -m gateway.server`` processes); stopped after the test.
    ``start_gateway(settings, PLAYER_LEASE_SECONDS=0)``; ``.wait()`` until it serves."""
    started = []

    def start(settings_override=None, **config):
        gateway = GatewayProcess(settings_override or settings, **config)
        started.append(gateway)
        return gateway

    yield start
    for gateway in started:
        gateway.stop()


@pytest.fixture
def start_service(container_factory, settings, start_gateway):
    """Start a service by name in a real nameko container; returns the container. The
    gateway is a process of its own (``GatewayProcess``), returned once it serves."""

    def start(name, settings_override=None, replacements=None, **config):
        effective = settings_override or settings
        if name == "gateway":
            return start_gateway(effective, **config).wait()
        config.setdefault("WEB_SERVER_ADDRESS", "127.0.0.1:0")
        container = container_factory(service_class(name), effective.nameko_config(**config))
        if replacements:
            replace_dependencies(container, **replacements)
        container.start()
        return container

    return start


def http_port(container):
    """The port a container's health server listens on (it was asked for port 0); for a
    gateway, its API port, not its status port (``status_port``)."""
    if isinstance(container, GatewayProcess):
        return container.port
    (server,) = [ext for ext in container.extensions if isinstance(ext, WebServer)]
    return server._sock.getsockname()[1]


def status_port(gateway):
    """The port of a gateway's internal status listener (a free one in tests)."""
    return gateway.status_port


@pytest.fixture
def rpc(settings):
    with ClusterRpcProxy(settings.nameko_config(), timeout=10) as proxy:
        yield proxy
