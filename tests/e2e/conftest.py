import pytest

from deckyard.api_client import ApiClient
from shared.config import SERVICE_NAMES
from tests.conftest import http_port


@pytest.fixture
def platform(start_service, start_gateway, settings):
    """Every service, each in its own real nameko container, and the gateway, in a
    process of its own (started first: it comes up while the containers start)."""
    gateway = start_gateway(settings, MAX_BODY_BYTES=settings.max_body_bytes)
    containers = {name: start_service(name) for name in SERVICE_NAMES}
    containers["gateway"] = gateway.wait()
    return containers


@pytest.fixture
def api(platform, settings):
    return ApiClient(f"http://127.0.0.1:{http_port(platform['gateway'])}", settings)


@pytest.fixture
def unleased_api(platform, start_service, settings):
    """A second gateway replica that asks accounts on every request (PLAYER_LEASE_SECONDS=0),
    for tests that lock an account behind the gateway's back, straight in the database:
    a leasing gateway sees such a lock only when its lease ends (gateway/players.py)."""
    gateway = start_service("gateway", PLAYER_LEASE_SECONDS=0)
    return ApiClient(f"http://127.0.0.1:{http_port(gateway)}", settings)
