import pytest

from shared.config import SERVICE_NAMES
from tests.conftest import http_port
from tests.e2e.api_client import ApiClient


@pytest.fixture
def platform(start_service, settings):
    """Every service and the gateway, each in its own real nameko container."""
    containers = {name: start_service(name) for name in SERVICE_NAMES}
    containers["gateway"] = start_service("gateway", MAX_BODY_BYTES=settings.max_body_bytes)
    return containers


@pytest.fixture
def api(platform, settings):
    return ApiClient(f"http://127.0.0.1:{http_port(platform['gateway'])}", settings)
