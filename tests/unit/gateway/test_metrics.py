"""The gateway's metrics: requests by route template, method and status; RPCs by outcome;
the push hub and the broker link read when scraped; /metrics on the status port only."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from prometheus_client import REGISTRY

from gateway.asgi import GatewayApp
from gateway.metrics import GatewayState, method_label
from gateway.push.hub import PushHub
from shared.config import load_settings
from shared.errors import NotFound, ServiceUnavailable
from tests.unit.gateway.test_asgi import app, call
from tests.unit.gateway.test_rpc import Exchange, client, reply, sent

ITEM = "/things/<uuid:item_id>/<int:index>"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def requests_of(route: str, method: str, status: int) -> float:
    labels = {"route": route, "method": method, "status": str(status)}
    return value("deckyard_http_requests_total", **labels)


def measured(files: Any = None) -> GatewayApp:
    gateway = app()
    gateway.measured, gateway.files = True, files
    return gateway


def test_requests_are_counted_by_route_template_method_and_status():
    before = {
        "item": requests_of(ITEM, "GET", 200),
        "missing": requests_of(ITEM, "GET", 404),
        "things": requests_of("/things", "POST", 405) + requests_of("/things", "PUT", 405),
        "broken": requests_of("/broken", "GET", 500),
        "no route": requests_of("<no route>", "GET", 404),
        "timed": value("deckyard_http_request_duration_seconds_count", route=ITEM, method="GET"),
    }
    item = str(uuid.uuid4())
    assert call(measured(), "GET", f"/things/{item}/1")[0] == 200
    assert call(measured(), "GET", f"/things/{item}/404")[0] == 404
    assert call(measured(), "PUT", "/things")[0] == 405
    assert call(measured(), "GET", "/broken")[0] == 500
    assert call(measured(), "GET", f"/elsewhere/{item}")[0] == 404

    assert requests_of(ITEM, "GET", 200) == before["item"] + 1
    assert requests_of(ITEM, "GET", 404) == before["missing"] + 1
    assert requests_of("/things", "PUT", 405) == before["things"] + 1
    assert requests_of("/broken", "GET", 500) == before["broken"] + 1
    assert requests_of("<no route>", "GET", 404) == before["no route"] + 1
    timed = value("deckyard_http_request_duration_seconds_count", route=ITEM, method="GET")
    assert timed == before["timed"] + 2
    assert value("deckyard_http_requests_in_flight") == 0
    labels = [str(s.labels) for m in REGISTRY.collect() for s in m.samples]
    assert not [label for label in labels if item in label]  # a template, never a path


def test_the_web_clients_files_are_one_label_and_unknown_methods_another():
    from starlette.responses import Response

    def files(path: str) -> Response:
        return Response("<html>", media_type="text/html")

    before = requests_of("<web client>", "GET", 200)
    assert call(measured(files), "GET", "/some/page/of/the/client")[0] == 200
    assert requests_of("<web client>", "GET", 200) == before + 1
    assert method_label("BREW") == "other" and method_label("PATCH") == "PATCH"


def test_an_unmeasured_app_counts_nothing():
    before = requests_of("/things", "GET", 200)
    assert call(app(), "GET", "/things")[0] == 200
    assert requests_of("/things", "GET", 200) == before


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        ({"result": {"id": "p1"}, "error": None}, "ok"),
        (
            {
                "result": None,
                "error": {
                    "exc_type": "NotFound",
                    "exc_path": "shared.errors.NotFound",
                    "exc_args": list(NotFound("player_not_found", "no").args),
                    "value": "",
                },
            },
            "refused",
        ),
        ({"result": None, "error": {"exc_type": "KeyError", "value": "bug"}}, "error"),
    ],
)
def test_each_rpc_is_timed_by_service_method_and_outcome(answer, outcome):
    labels = {"service": "accounts", "method": "me", "outcome": outcome}
    before = value("deckyard_rpc_client_duration_seconds_count", **labels)

    async def scenario() -> None:
        exchange = Exchange()
        rpc = client(exchange)
        task = asyncio.create_task(rpc.call("accounts", "me", sub="auth0|x"))
        await rpc._replied(reply(await sent(exchange), answer))
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(scenario())
    assert value("deckyard_rpc_client_duration_seconds_count", **labels) == before + 1


def test_a_call_without_the_broker_is_unavailable():
    labels = {"service": "cards", "method": "get_deck", "outcome": "unavailable"}
    before = value("deckyard_rpc_client_duration_seconds_count", **labels)

    async def scenario() -> None:
        with pytest.raises(ServiceUnavailable):
            await client(Exchange(), connected=False).call("cards", "get_deck")

    asyncio.run(scenario())
    assert value("deckyard_rpc_client_duration_seconds_count", **labels) == before + 1


def test_the_hub_and_the_broker_link_are_read_when_scraped():
    state = GatewayState()
    assert list(state.collect()) == []  # no gateway yet
    hub = PushHub(max_connections=7)
    up = {"now": True}
    state.attach(hub, lambda: up["now"])
    hub.connect("p1")
    hub.connect("p2")

    def read() -> dict[str, float]:
        return {s.name: s.value for m in state.collect() for s in m.samples}

    assert read() == {
        "deckyard_push_connections": 2,
        "deckyard_push_connections_limit": 7,
        "deckyard_push_messages_delivered_total": 0,
        "deckyard_push_slow_sockets_dropped_total": 0,
        "deckyard_broker_up": 1,
    }
    up["now"] = False
    assert read()["deckyard_broker_up"] == 0
    state.attach(hub, lambda: True, lambda: 0.25)
    assert read()["deckyard_push_stream_lag_seconds"] == 0.25


def test_metrics_are_a_route_of_the_status_port_only():
    from gateway.app import Gateway
    from gateway.http import routes_of

    routes = {route.url: route for _, route in routes_of(Gateway)}
    assert routes["/metrics"].internal
    secrets = {"DATABASE_URL": "postgresql://u:p@db/postgres", "AMQP_URI": "amqp://u:p@mq/"}
    gateway = Gateway(load_settings({**secrets, "DEV_AUTH": "1"}))
    assert call(gateway.api_app(), "GET", "/metrics")[0] == 404
    status, headers, body = call(gateway.status_app(), "GET", "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain; version=0.0.4")
    assert b"deckyard_push_connections 0.0" in body  # this gateway's hub, attached
    assert b'deckyard_http_requests_total{method="GET",route="<no route>",status="404"}' in body


def test_methods_a_client_makes_up_are_one_label_and_grow_nothing():
    from gateway import metrics

    call(measured(), "BREW0", "/things")
    sizes = len(metrics._TIMERS), len(metrics._COUNTS)
    before = requests_of("/things", "other", 405)
    for n in range(1, 20):
        assert call(measured(), f"BREW{n}", "/things")[0] == 405
    assert requests_of("/things", "other", 405) == before + 19
    assert (len(metrics._TIMERS), len(metrics._COUNTS)) == sizes
