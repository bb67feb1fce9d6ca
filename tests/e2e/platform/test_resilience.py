"""A missing or stopped service gives a quick 503, never a hung request."""

import dataclasses
import urllib.parse

import pytest
import requests

from deckyard.api_client import ApiClient
from shared.health import BrokerReadiness
from shared.readiness import BrokerLink, CachedCheck
from tests.conftest import http_port, status_port
from tests.helpers import wait_for
from tests.random_refs import random_sub
from tests.tcp_relay import TcpRelay

pytestmark = pytest.mark.e2e


def test_me_is_503_when_accounts_is_stopped(start_service, settings):
    quick = dataclasses.replace(settings, rpc_timeout=1.0)
    accounts = start_service("accounts", settings_override=quick)
    gateway = start_service("gateway", settings_override=quick)
    api = ApiClient(f"http://127.0.0.1:{http_port(gateway)}", quick)
    assert api.me(random_sub()).status_code == 200

    accounts.stop()  # its durable queue stays: the request waits there, unanswered
    response = api.me(random_sub())
    assert response.status_code == 503
    body = response.json()
    assert body["code"] in ("service_timeout", "service_unavailable")
    assert "Traceback" not in response.text


def test_the_gateway_stays_ready_while_a_service_is_missing(start_service, settings):
    """Partial failure is not a full outage: readiness is the gateway's own broker link."""
    quick = dataclasses.replace(settings, rpc_timeout=1.0)
    start_service("accounts", settings_override=quick)
    gateway = start_service("gateway", settings_override=quick)
    response = requests.get(f"http://127.0.0.1:{http_port(gateway)}/ready", timeout=15)
    assert response.status_code == 200
    assert response.json() == {"ready": True, "broker": "ok"}


def test_internal_status_is_503_and_names_the_missing_services(start_service, settings):
    quick = dataclasses.replace(settings, rpc_timeout=1.0)
    start_service("accounts", settings_override=quick)
    gateway = start_service("gateway", settings_override=quick)
    status = f"http://127.0.0.1:{status_port(gateway)}/internal/status"
    response = requests.get(status, timeout=15)
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["broker"] == "ok"
    assert body["services"]["accounts"] == "ok"
    assert body["services"]["battle"] == "unavailable"


def test_internal_status_is_not_served_on_the_api_port(start_service, settings):
    gateway = start_service("gateway")
    response = requests.get(f"http://127.0.0.1:{http_port(gateway)}/internal/status", timeout=5)
    assert response.status_code == 404
    assert response.json()["code"] == "route_not_found"
    api_routes = requests.get(f"http://127.0.0.1:{status_port(gateway)}/me", timeout=5)
    assert api_routes.status_code == 404  # and the status port serves no API route


def _break_the_broker_link(container):
    """Point only the readiness link at a closed port (the container itself needs the
    broker to run at all)."""
    unreachable = BrokerLink("amqp://guest:guest@127.0.0.1:1/", timeout=1.0)
    (provider,) = [d for d in container.dependencies if isinstance(d, BrokerReadiness)]
    provider.link = unreachable
    provider.check = CachedCheck(provider._check_in_time, ttl=1.0)


@pytest.fixture
def relayed_broker(settings):
    """The broker behind a relay the test can cut (tests/tcp_relay.py)."""
    url = urllib.parse.urlsplit(settings.amqp_uri)
    relay = TcpRelay(url.port or 5672, url.hostname or "127.0.0.1")
    netloc = f"{url.username}:{url.password}@127.0.0.1:{relay.port}"
    relayed = dataclasses.replace(settings, amqp_uri=url._replace(netloc=netloc).geturl())
    yield relay, relayed
    relay.close()


def test_the_gateway_is_not_ready_without_its_broker_and_recovers(
    start_service, start_gateway, relayed_broker
):
    """Its own link, cut and restored: 503 (not ready; calls answered broker_unavailable
    at once, never hung), then ready and serving again without a restart."""
    relay, relayed = relayed_broker
    start_service("accounts")
    gateway = start_gateway(relayed).wait()
    api = ApiClient(gateway.base_url, relayed)
    assert requests.get(gateway.base_url + "/ready", timeout=15).status_code == 200
    assert api.me(random_sub()).status_code == 200

    relay.cut()
    wait_for(lambda: requests.get(gateway.base_url + "/ready", timeout=15).status_code == 503)
    response = requests.get(gateway.base_url + "/ready", timeout=15)
    assert response.json() == {"ready": False, "broker": "unavailable"}
    refused = api.me(random_sub())
    assert refused.status_code == 503
    assert refused.json()["code"] == "broker_unavailable"

    relay.restore()
    wait_for(lambda: requests.get(gateway.base_url + "/ready", timeout=15).status_code == 200)
    wait_for(lambda: api.me(random_sub()).status_code == 200)


def test_a_service_is_not_ready_without_its_broker(start_service):
    container = start_service("cards")
    base = f"http://127.0.0.1:{http_port(container)}"
    _break_the_broker_link(container)
    ready = requests.get(base + "/ready", timeout=15)
    assert ready.status_code == 503
    assert ready.json() == {
        "service": "cards",
        "database": "ok",
        "broker": "unavailable",
        "ok": False,
    }


@pytest.mark.parametrize("service", ["accounts", "cards", "challenge", "authoring", "battle"])
def test_each_service_answers_its_own_health_and_ready_probes(start_service, service):
    container = start_service(service)
    base = f"http://127.0.0.1:{http_port(container)}"
    assert requests.get(base + "/health", timeout=5).json() == {"status": "alive"}
    ready = requests.get(base + "/ready", timeout=5)
    assert ready.status_code == 200
    assert ready.json() == {"service": service, "database": "ok", "broker": "ok", "ok": True}


def test_service_ready_probe_is_503_when_its_database_is_unreachable(start_service, settings):
    unreachable = dataclasses.replace(
        settings, database_url="postgresql://postgres@127.0.0.1:1/postgres"
    )
    container = start_service("battle", settings_override=unreachable)
    base = f"http://127.0.0.1:{http_port(container)}"
    assert requests.get(base + "/health", timeout=5).status_code == 200
    ready = requests.get(base + "/ready", timeout=15)
    assert ready.status_code == 503
    assert ready.json()["database"] == "unavailable"
