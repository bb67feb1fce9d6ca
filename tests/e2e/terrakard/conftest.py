"""TerraKard's e2e platform: every service, no rate limits (the catalogue is published
by two Authors in a few dozen changes), and battle on a clock only the tests move
(``clock``: each test's own epoch, tests/e2e/terrakard/support.py)."""

import pytest

from shared.config import SERVICE_NAMES
from tests.e2e.terrakard.support import next_clock

UNLIMITED = {
    "RATE_LIMIT_PLAYER_PER_MINUTE": 1_000_000,
    "RATE_LIMIT_PLAYER_BURST": 1_000_000,
}


@pytest.fixture
def clock():
    """The battle service's time: it moves only when the test moves it."""
    return next_clock()


@pytest.fixture
def platform(start_service, start_gateway, settings, clock):
    """As tests/e2e/conftest.py's, without rate limits, battle on ``clock``."""
    gateway = start_gateway(settings, MAX_BODY_BYTES=settings.max_body_bytes, **UNLIMITED)
    containers = {
        name: start_service(name, replacements={"clock": clock} if name == "battle" else None)
        for name in SERVICE_NAMES
    }
    containers["gateway"] = gateway.wait()
    return containers
