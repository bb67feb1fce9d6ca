"""Fixtures for every tier. The eventlet monkey-patch comes first, as nameko needs.

Unit tests need nothing running. Integration and e2e tests get a real
PostgreSQL/PostGIS and RabbitMQ through ``shared.testing`` (see its docstring
for where they come from and when a missing one fails rather than skips).
"""

import eventlet

eventlet.monkey_patch()  # must precede every socket-using import

import os  # noqa: E402

import pytest  # noqa: E402
from nameko.standalone.rpc import ClusterRpcProxy  # noqa: E402
from nameko.testing.services import replace_dependencies  # noqa: E402
from nameko.testing.utils import get_extension  # noqa: E402
from nameko.web.server import WebServer  # noqa: E402

from deckyard.registry import service_class  # noqa: E402
from gateway.entrypoints import StatusWebServer  # noqa: E402
from shared.db import use_cooperative_psycopg  # noqa: E402
from shared.testing import ServicesUnavailable, isolated_stack, services_required  # noqa: E402

use_cooperative_psycopg()
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
def start_service(container_factory, settings):
    """Start a service by name in a real nameko container; returns the container."""

    def start(name, settings_override=None, replacements=None, **config):
        effective = settings_override or settings
        config.setdefault("WEB_SERVER_ADDRESS", "127.0.0.1:0")
        container = container_factory(service_class(name), effective.nameko_config(**config))
        if replacements:
            replace_dependencies(container, **replacements)
        container.start()
        return container

    return start


def http_port(container):
    """The port a container's web server listens on (it was asked for port 0); for the
    gateway, its API port, not its status port (``status_port``)."""
    (server,) = [
        ext
        for ext in container.extensions
        if isinstance(ext, WebServer) and not isinstance(ext, StatusWebServer)
    ]
    return server._sock.getsockname()[1]


def status_port(container):
    """The port of the gateway's internal status listener (a free one in tests)."""
    server = get_extension(container, StatusWebServer)
    return server._sock.getsockname()[1]


@pytest.fixture
def rpc(settings):
    with ClusterRpcProxy(settings.nameko_config(), timeout=10) as proxy:
        yield proxy
