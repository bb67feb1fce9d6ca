"""One access line per API request: method, route template, status, milliseconds,
request id, trace id; never the path's ids, the query or a header's token."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from gateway.asgi import GatewayApp
from shared import tracing
from tests.log_capture import json_lines
from tests.unit.gateway.test_asgi import app, call

TOKEN = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXBsYXllcg.c2lnbmF0dXJl"


def measured() -> GatewayApp:
    gateway = app()
    gateway.measured = True  # the API port's app; the status port's logs no access line
    return gateway


def access_lines(lines: list[dict[str, Any]], request_id: str) -> list[dict[str, Any]]:
    return [
        line
        for line in lines
        if line["logger"] == "gateway.access" and line.get("request_id") == request_id
    ]


REQUESTS = [  # method, path sent, status, the route's template logged
    ("GET", "/v1/things", 200, "/v1/things"),
    ("POST", "/things", 201, "/things"),
    ("GET", f"/v1/things/{uuid.UUID(int=7)}/3", 200, "/v1/things/<uuid:item_id>/<int:index>"),
    ("GET", f"/v1/things/{uuid.UUID(int=7)}/404", 404, "/v1/things/<uuid:item_id>/<int:index>"),
    ("PUT", "/v1/things", 405, "/v1/things"),
    ("GET", "/v1/broken", 500, "/v1/broken"),
    ("GET", "/v1/nothing/here", 404, "<no route>"),
]


@pytest.mark.parametrize(("method", "path", "status", "route"), REQUESTS)
def test_each_request_is_one_access_line_with_its_route_template_and_no_token(
    method, path, status, route
):
    request_id = f"req-{uuid.uuid4().hex}"
    headers = {
        "X-Request-ID": request_id,
        "Authorization": f"Bearer {TOKEN}",
        "Content-Type": "application/json",
    }
    body = b'{"a": 1}' if method == "POST" else b""
    with json_lines() as lines:
        assert call(measured(), method, path, body, headers)[0] == status
        written = lines()
    [line] = access_lines(written, request_id)
    assert (line["method"], line["route"], line["status"]) == (method, route, status)
    assert line["level"] == "INFO" and isinstance(line["duration_ms"], float)
    assert line["message"] == f"{method} {route} {status} {line['duration_ms']:.1f} ms"
    assert "trace_id" not in line  # tracing off: no trace, rather than a made-up one
    assert all(TOKEN not in str(entry) for entry in written)
    assert all(str(uuid.UUID(int=7)) not in str(entry) for entry in written)


def test_the_status_port_app_logs_no_access_line():
    with json_lines() as lines:
        call(app(), "GET", "/things", headers={"X-Request-ID": "probe-1"})
        assert access_lines(lines(), "probe-1") == []


def test_with_tracing_on_the_access_line_names_the_requests_trace():
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    assert tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"})
    try:
        exported = InMemorySpanExporter()
        provider = TracerProvider()  # in memory: the collector's address is never called
        provider.add_span_processor(SimpleSpanProcessor(exported))
        assert tracing._on is not None
        tracing._on.providers["deckyard-gateway"] = provider
        traced = tracing.traced_asgi(measured())
        ids = [f"traced-{n}" for n in range(3)]
        with json_lines() as lines:
            for request_id in ids:
                asyncio.run(_get(traced, "/v1/things", request_id))
            written = lines()
    finally:
        tracing.shutdown()
    spans = {s.attributes["deckyard.request_id"]: s for s in exported.get_finished_spans()}
    for request_id in ids:
        [line] = access_lines(written, request_id)
        context = spans[request_id].get_span_context()
        assert line["trace_id"] == format(context.trace_id, "032x")
        assert line["span_id"] == format(context.span_id, "016x")
    assert len({line["trace_id"] for line in written if line["logger"] == "gateway.access"}) == 3


async def _get(asgi: Any, path: str, request_id: str) -> None:
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"x-request-id", request_id.encode())],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }
    messages = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        pass

    await asgi(scope, receive, send)
