"""A browser on a configured origin may call the API; any other origin learns nothing."""

from __future__ import annotations

import pytest
import requests

from tests.conftest import http_port, status_port
from tests.gateway_process import GatewayProcess

pytestmark = pytest.mark.e2e

APP = "https://play.deckyard.example.com"


@pytest.fixture(scope="module")
def gateway_base(stack):
    """A gateway alone (preflights and these answers need no service)."""
    gateway = GatewayProcess(stack.settings, CORS_ORIGINS=APP).wait()
    try:
        yield gateway, gateway.base_url
    finally:
        gateway.stop()


def preflight(base, path, origin, method="POST"):
    return requests.options(
        base + path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
        timeout=5,
    )


def test_a_preflight_from_the_configured_origin_is_answered_204(gateway_base):
    _, base = gateway_base
    response = preflight(base, "/quest/decks", APP)

    assert response.status_code == 204, response.text
    assert response.headers["Access-Control-Allow-Origin"] == APP
    assert {"GET", "POST"} <= set(response.headers["Access-Control-Allow-Methods"].split(", "))
    allowed = {h.lower() for h in response.headers["Access-Control-Allow-Headers"].split(", ")}
    assert {"authorization", "content-type", "idempotency-key", "x-request-id"} <= allowed
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Origin" in response.headers["Vary"]
    assert response.content == b""


def test_a_preflight_from_another_origin_is_a_403_problem_without_cors_headers(gateway_base):
    _, base = gateway_base
    response = preflight(base, "/quest/decks", "https://evil.example.com")

    assert response.status_code == 403
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "cors_origin_not_allowed"
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]


def test_a_preflight_for_a_route_that_does_not_exist_is_404(gateway_base):
    _, base = gateway_base
    assert preflight(base, "/nowhere", APP).status_code == 404


def test_answers_carry_the_allowed_origin_and_vary(gateway_base):
    _, base = gateway_base
    allowed = requests.get(base + "/health", headers={"Origin": APP}, timeout=5)
    refused = requests.get(base + "/me", headers={"Origin": APP}, timeout=5)  # a 401 too
    other = requests.get(
        base + "/health", headers={"Origin": "https://evil.example.com"}, timeout=5
    )

    for response in (allowed, refused):
        assert response.headers["Access-Control-Allow-Origin"] == APP
        assert "Origin" in response.headers["Vary"]
    assert refused.status_code == 401
    assert "Access-Control-Allow-Origin" not in other.headers


def test_without_cors_origins_nothing_changes_and_preflights_are_refused(start_service):
    gateway = start_service("gateway")
    base = f"http://127.0.0.1:{http_port(gateway)}"

    answer = requests.get(base + "/health", headers={"Origin": APP}, timeout=5)
    assert not [h for h in answer.headers if h.lower().startswith("access-control-")]
    assert "Vary" not in answer.headers
    assert preflight(base, "/quest/decks", APP).status_code == 403


def test_the_status_port_never_answers_cors(gateway_base):
    container, _ = gateway_base
    base = f"http://127.0.0.1:{status_port(container)}"
    response = requests.get(base + "/internal/status", headers={"Origin": APP}, timeout=15)
    assert "Access-Control-Allow-Origin" not in response.headers
    assert preflight(base, "/internal/status", APP, method="GET").status_code == 403
