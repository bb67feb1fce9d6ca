"""With OTEL_EXPORTER_OTLP_ENDPOINT set, one request is one trace: the gateway's request,
its RPC, the service's entrypoint and SQL, the event's publication and its consumer, each
the child of the one before, each with the request's id (docs/operations.md, "Traces").

The collector is a stand-in: a small HTTP server that decodes OTLP/HTTP export requests
(protobuf) as a real collector would."""

from __future__ import annotations

import gzip
import threading
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan

from deckyard.api_client import ApiClient
from shared import tracing
from tests.conftest import http_port
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

SERVER, CLIENT = ProtoSpan.SPAN_KIND_SERVER, ProtoSpan.SPAN_KIND_CLIENT
PRODUCER, CONSUMER = ProtoSpan.SPAN_KIND_PRODUCER, ProtoSpan.SPAN_KIND_CONSUMER


@dataclass(frozen=True)
class ReceivedSpan:
    service: str  # the resource's service.name
    name: str
    kind: int
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict


def _value(any_value):
    return getattr(any_value, any_value.WhichOneof("value"))


def _spans_of(request: ExportTraceServiceRequest) -> list[ReceivedSpan]:
    received = []
    for resource_spans in request.resource_spans:
        resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                received.append(
                    ReceivedSpan(
                        service=resource["service.name"],
                        name=span.name,
                        kind=span.kind,
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_id=span.parent_span_id.hex(),
                        attributes={a.key: _value(a.value) for a in span.attributes},
                    )
                )
    return received


@pytest.fixture
def collector():
    """An OTLP/HTTP traces endpoint on a free port; ``.spans`` is everything it received."""
    spans: list[ReceivedSpan] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            assert self.path == "/v1/traces"
            spans.extend(_spans_of(ExportTraceServiceRequest.FromString(body)))
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.spans = spans
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def traced(collector, start_service):
    """accounts and cards traced (in this process), and a gateway traced (its own)."""
    assert tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": collector.url})
    try:
        containers = {name: start_service(name) for name in ("accounts", "cards")}
        containers["gateway"] = start_service(
            "gateway", OTEL_EXPORTER_OTLP_ENDPOINT=collector.url, OTEL_BSP_SCHEDULE_DELAY=50
        )
        yield containers
    finally:
        tracing.shutdown()


def test_one_request_is_one_trace_from_the_gateway_to_the_event_consumer(
    traced, collector, settings
):
    api = ApiClient(f"http://127.0.0.1:{http_port(traced['gateway'])}", settings)
    request_id = f"traced-{uuid.uuid4().hex}"
    token = api.token(random_sub())
    foreign = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"  # a client's own
    headers = {"X-Request-ID": request_id, "traceparent": foreign}
    answer = api.get("/me", token=token, headers=headers)
    assert answer.status_code == 200  # a new player: accounts writes PlayerRegistered

    def consumed():
        tracing.flush()  # this process's spans now; the gateway's come every 50 ms
        ours = [s for s in collector.spans if s.attributes.get("deckyard.request_id") == request_id]
        names = {s.name for s in ours}
        return ours if {"cards.on_player_registered", "GET /me"} <= names else None

    spans = wait_for(consumed, timeout=60)
    by_id = {s.span_id: s for s in spans}

    def parent(span):
        return by_id[span.parent_id]

    [consumer] = [s for s in spans if s.name == "cards.on_player_registered"]
    assert (consumer.service, consumer.kind) == ("deckyard-cards", CONSUMER)
    publish = parent(consumer)
    assert (publish.service, publish.kind) == ("deckyard-accounts", PRODUCER)
    assert publish.name == "PlayerRegistered publish"
    writer = parent(publish)  # the accounts entrypoint that wrote the event
    assert (writer.service, writer.kind) == ("deckyard-accounts", SERVER)
    assert writer.attributes["rpc.service"] == "accounts"
    call = parent(writer)  # the gateway's RPC
    assert (call.service, call.kind, call.name) == (
        "deckyard-gateway",
        CLIENT,
        f"accounts.{writer.attributes['rpc.method']}",
    )
    request = parent(call)
    assert (request.service, request.kind, request.name) == ("deckyard-gateway", SERVER, "GET /me")
    assert request.attributes["http.route"] == "/me"
    assert request.parent_id == "" and request.trace_id not in foreign  # the gateway's own

    # The writer's SQL statements are its children (the outbox insert among them).
    statements = [s for s in spans if s.parent_id == writer.span_id and s.kind == CLIENT]
    assert any("INSERT" in s.name.upper() or "outbox" in str(s.attributes) for s in statements)

    # One trace; every span of it carries the request's id (the filter above chose them).
    assert {s.trace_id for s in spans} == {request.trace_id}
    everything_in_trace = [s for s in collector.spans if s.trace_id == request.trace_id]
    assert {s.span_id for s in everything_in_trace} == set(by_id)
