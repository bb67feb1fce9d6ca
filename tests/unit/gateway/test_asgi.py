"""The gateway's ASGI app: routing, bodies, results, problems, CORS, request ids."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from starlette.responses import Response

from gateway.asgi import Bound, GatewayApp, RoutingTable
from gateway.cors import CorsPolicy
from gateway.http import Route, RouteDoc, json_input
from shared.errors import NotFound

APP_ORIGIN = "https://play.deckyard.example.com"


async def _things(request: Any) -> Any:
    return {"thing_count": 2}


async def _created(request: Any) -> Any:
    return 201, {"echo": json_input(request)}


async def _item(request: Any, item_id: str, index: int) -> Any:
    if index == 404:
        raise NotFound("item_not_found", "there is no such item")
    return {"item_id": item_id, "index": index}


async def _html(request: Any) -> Response:
    return Response("<p>hi</p>", status_code=202, media_type="text/html")


async def _broken(request: Any) -> Any:
    raise RuntimeError("password=hunter2")


def app(max_body: int = 64, cors: CorsPolicy | None = None) -> GatewayApp:
    table = RoutingTable(
        [
            Bound(Route("GET", "/things", RouteDoc("Things")), _things),
            Bound(Route("POST", "/things", RouteDoc("Make", status=201)), _created),
            Bound(Route("GET", "/things/<uuid:item_id>/<int:index>", RouteDoc("One")), _item),
            Bound(Route("GET", "/page", RouteDoc("Page")), _html),
            Bound(Route("GET", "/broken", RouteDoc("Broken")), _broken),
        ]
    )
    return GatewayApp(table, cors or CorsPolicy(), max_body)


def call(
    gateway: GatewayApp,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    chunks: list[bytes] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request through the app, as uvicorn would hand it over."""
    sent: list[dict[str, Any]] = []
    pieces = chunks if chunks is not None else [body]
    raw_headers = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    if chunks is None and body:
        raw_headers.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "headers": raw_headers,
        "client": ("127.0.0.1", 5000),
    }

    async def receive() -> dict[str, Any]:
        piece = pieces.pop(0) if pieces else b""
        return {"type": "http.request", "body": piece, "more_body": bool(pieces)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(gateway(scope, receive, send))
    start = sent[0]
    head = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], head, b"".join(m.get("body", b"") for m in sent[1:])


def test_a_plain_result_is_camel_case_json_with_the_documented_status():
    status, headers, body = call(app(), "GET", "/things")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"thingCount": 2}


def test_a_status_and_payload_pair_sets_the_status_and_the_body_is_read():
    status, _, body = call(
        app(), "POST", "/things", b'{"a": 1}', {"Content-Type": "application/json"}
    )
    assert status == 201
    assert json.loads(body) == {"echo": {"a": 1}}


def test_path_values_are_converted_and_a_refusal_is_its_problem():
    item = "0b6f4f64-1c52-4d8e-9a51-6A0C3E7D2B19"
    status, _, body = call(app(), "GET", f"/things/{item}/3")
    assert (status, json.loads(body)) == (200, {"itemId": item.lower(), "index": 3})
    status, headers, body = call(app(), "GET", f"/things/{item}/404")
    assert status == 404
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "item_not_found"


@pytest.mark.parametrize(
    "path", ["/nothing", "/things/not-a-uuid/1", "/things/0b6f4f64-1c52-4d8e-9a51-6a0c3e7d2b19/-1"]
)
def test_an_unknown_route_is_a_404_problem(path):
    status, _, body = call(app(), "GET", path)
    assert status == 404
    assert json.loads(body)["code"] == "route_not_found"


def test_a_wrong_method_is_a_405_problem_with_allow():
    status, headers, body = call(app(), "DELETE", "/things")
    assert status == 405
    assert headers["allow"] == "GET, HEAD, POST"
    assert json.loads(body)["code"] == "method_not_allowed"


def test_a_ready_made_response_is_passed_through():
    status, headers, body = call(app(), "GET", "/page")
    assert (status, body) == (202, b"<p>hi</p>")
    assert headers["content-type"].startswith("text/html")


def test_an_unexpected_exception_is_a_500_problem_without_its_text():
    status, headers, body = call(app(), "GET", "/broken")
    assert status == 500
    assert headers["content-type"] == "application/problem+json"
    assert b"hunter2" not in body
    assert json.loads(body)["errorId"]


def test_a_declared_length_over_the_limit_is_413_before_reading():
    headers = {"Content-Type": "application/json", "Content-Length": "65"}
    status, _, body = call(app(max_body=64), "POST", "/things", headers=headers, chunks=[])
    assert status == 413
    assert json.loads(body)["code"] == "payload_too_large"


def test_a_body_without_a_length_is_cut_one_byte_past_the_limit():
    headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    status, _, _ = call(
        app(max_body=8), "POST", "/things", headers=headers, chunks=[b"[1,2,3,", b"4,5]"]
    )
    assert status == 413
    status, _, body = call(
        app(max_body=8), "POST", "/things", headers=headers, chunks=[b"[1,2,", b"3]"]
    )
    assert (status, json.loads(body)) == (201, {"echo": [1, 2, 3]})


def test_the_request_id_is_the_clients_when_usable_and_new_otherwise():
    _, headers, _ = call(app(), "GET", "/things", headers={"X-Request-ID": "abc-123"})
    assert headers["x-request-id"] == "abc-123"
    _, headers, _ = call(app(), "GET", "/things", headers={"X-Request-ID": "bad id\u00e9"[:6]})
    assert headers["x-request-id"] != "bad id" and len(headers["x-request-id"]) == 32


def test_a_versioned_path_is_the_same_route():
    assert call(app(), "GET", "/v1/things")[::2] == call(app(), "GET", "/things")[::2]
    item = f"/things/{uuid.uuid4()}/3"
    assert call(app(), "GET", "/v1" + item)[0] == call(app(), "GET", item)[0] == 200
    status, _, body = call(app(), "GET", "/v1/nothing/here")
    assert (status, json.loads(body)["code"]) == (404, "route_not_found")


def test_a_versioned_path_never_serves_a_file_of_the_web_client():
    served: list[str] = []

    def files(path: str) -> Response:
        served.append(path)
        return Response("<html></html>", media_type="text/html")

    gateway = app()
    gateway.files = files
    assert call(gateway, "GET", "/index.html")[0] == 200
    status, _, body = call(gateway, "GET", "/v1/index.html")
    assert (status, json.loads(body)["code"], served) == (404, "route_not_found", ["/index.html"])


def test_a_failure_serving_a_file_is_a_problem_not_the_server_s_bare_500():
    def files(path: str) -> Response:
        raise ValueError("embedded null byte")

    gateway = app()
    gateway.files = files
    status, headers, body = call(gateway, "GET", "/foo\x00bar")
    assert status == 500 and headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "internal_error"
    assert b"null byte" not in body


def test_a_problem_quotes_the_request_id_of_its_answer():
    status, headers, body = call(app(), "GET", "/no/such/route", headers={"X-Request-ID": "r-42"})
    assert status == 404 and json.loads(body)["requestId"] == "r-42" == headers["x-request-id"]
    status, headers, body = call(app(), "GET", "/no/such/route")
    assert json.loads(body)["requestId"] == headers["x-request-id"]


def test_cors_answers_an_allowed_origin_and_refuses_others():
    policy = CorsPolicy.of([APP_ORIGIN])
    preflight = {"Origin": APP_ORIGIN, "Access-Control-Request-Method": "POST"}
    status, headers, body = call(app(cors=policy), "OPTIONS", "/things", headers=preflight)
    assert status == 204 and body == b""
    assert headers["access-control-allow-methods"] == "GET, POST"
    evil = {**preflight, "Origin": "https://evil.example.com"}
    status, headers, body = call(app(cors=policy), "OPTIONS", "/things", headers=evil)
    assert status == 403 and json.loads(body)["code"] == "cors_origin_not_allowed"
    _, headers, _ = call(app(cors=policy), "GET", "/things", headers={"Origin": APP_ORIGIN})
    assert headers["access-control-allow-origin"] == APP_ORIGIN
    assert "Origin" in headers["vary"]


def test_the_internal_status_names_each_service():
    from gateway.routes.platform import ready_body, status_body

    names = ("accounts", "battle", "cards")
    results = {"accounts": {"ok": True}, "battle": RuntimeError("timeout"), "cards": {"ok": False}}

    assert status_body(True, results, names) == {
        "ok": False,
        "broker": "ok",
        "services": {"accounts": "ok", "battle": "unavailable", "cards": "unavailable"},
    }
    assert status_body(True, {n: {"ok": True} for n in names}, names)["ok"] is True
    assert status_body(False, {}, names) == {
        "ok": False,
        "broker": "unavailable",
        "services": dict.fromkeys(names, "unknown"),
    }
    assert ready_body(True) == {"ready": True, "broker": "ok"}
    assert ready_body(False) == {"ready": False, "broker": "unavailable"}
