"""The test clock on a running stack (CLOCK_CONTROL=1): every service and the gateway in
processes of their own, the clock moved through the gateway's status port and through
``deckyard clock``'s functions, a time rule seen moving through the public API, and the
clock never going back. Without CLOCK_CONTROL there is no clock to move.

The offset is the session stack's (one row of its accounts database): each test here
reads where it starts and checks what it adds, never an absolute offset."""

from __future__ import annotations

import email.utils
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
import requests

from deckyard import clock as clock_cli
from deckyard.api_client import ApiClient
from games.terrakard.arena import ARENA
from shared.config import SERVICE_NAMES
from shared.errors import InvalidInput, NotFound
from tests.conftest import http_port, status_port
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e


@pytest.fixture
def clocked_settings(settings):
    return replace(settings, clock_control=True)


@pytest.fixture
def clocked(start_service, start_gateway, clocked_settings):
    """Every service and the gateway with CLOCK_CONTROL=1 (the gateway started first)."""
    gateway = start_gateway(clocked_settings, CLOCK_CONTROL=1)
    for name in SERVICE_NAMES:
        start_service(name, settings_override=clocked_settings)
    return gateway.wait()


def clock_url(gateway) -> str:
    return f"http://127.0.0.1:{status_port(gateway)}/internal/clock"


def offset_of(gateway) -> timedelta:
    response = requests.get(clock_url(gateway), timeout=10)
    assert response.status_code == 200, response.text
    return timedelta(seconds=response.json()["offsetSeconds"])


def advance(gateway, by: object) -> requests.Response:
    return requests.post(clock_url(gateway), json={"advance": by}, timeout=10)


def date_of(response: requests.Response) -> datetime:
    (date,) = [v for k, v in response.headers.items() if k.lower() == "date"]
    return email.utils.parsedate_to_datetime(date)


def test_an_advance_moves_the_services_and_the_gateway_and_a_time_rule_with_them(clocked, settings):
    api = ApiClient(f"http://127.0.0.1:{http_port(clocked)}", settings)
    token = api.token(random_sub("clock"))
    auth = {"Authorization": f"Bearer {token}"}
    assert api.get("/v1/me", token=token).status_code == 200

    def profile() -> requests.Response | None:
        response = api.get("/v1/terrakard/profile", headers=dict(auth))
        return response if response.status_code == 200 else None  # battle knows us once

    first = wait_for(profile)  # battle has the player: its first visit, now
    before = offset_of(clocked)
    protected_until = datetime.fromisoformat(first.json()["protectedUntil"])
    start = protected_until - ARENA.new_player_protection  # battle's time at the first visit
    assert date_of(first) >= start.replace(microsecond=0) - timedelta(seconds=1)

    moved = advance(clocked, "49h")
    assert moved.status_code == 200, moved.text
    assert timedelta(seconds=moved.json()["offsetSeconds"]) == before + timedelta(hours=49)

    # The next answers: battle past the 48-hour protection, the gateway's Date with it.
    after = api.get("/v1/terrakard/profile", headers=dict(auth))
    assert after.status_code == 200, after.text
    assert after.json()["protectedUntil"] is None
    assert date_of(after) >= protected_until
    day = datetime.fromisoformat(after.json()["day"] + "T00:00:00+00:00")
    assert day >= (start + timedelta(hours=49)).replace(hour=0, minute=0, second=0, microsecond=0)


def test_the_clock_never_goes_back(clocked, rpc):
    before = offset_of(clocked)
    for refused in ["-1h", "0s", "1.5h", "soon", 3600, None]:
        response = advance(clocked, refused)
        assert response.status_code == 422, (refused, response.text)
        assert response.json()["code"] == "validation_failed"
    assert offset_of(clocked) == before
    with pytest.raises(InvalidInput):
        clock_cli.advance(rpc.accounts, "-2d")
    # deckyard clock's path (accounts' RPC) and the route's see one offset, only growing.
    view = clock_cli.advance(rpc.accounts, "1d2h")
    assert timedelta(seconds=view["offset_seconds"]) == before + timedelta(days=1, hours=2)
    assert offset_of(clocked) == before + timedelta(days=1, hours=2)
    assert clock_cli.line(clock_cli.show(rpc.accounts)).startswith("offset ")


def test_without_clock_control_there_is_no_clock_to_move(
    start_service, start_gateway, settings, rpc
):
    gateway = start_gateway(settings).wait()
    assert requests.get(clock_url(gateway), timeout=10).status_code == 404
    response = advance(gateway, "49h")
    assert response.status_code == 404 and response.json()["code"] == "route_not_found"
    start_service("accounts")  # no CLOCK_CONTROL: its RPCs answer as if absent
    with pytest.raises(NotFound):
        clock_cli.show(rpc.accounts)
