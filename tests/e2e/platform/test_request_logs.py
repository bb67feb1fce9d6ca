"""The request id finds a request in the logs (docs/operations.md, "Request ids"): ten
requests with known ``X-Request-ID``s through a real gateway under ``LOG_FORMAT=json``
are ten access lines, one each, with the route's template, the status, the milliseconds
and the request's trace; no line holds the token or the query's secret."""

from __future__ import annotations

import json
import uuid

import pytest
import requests

from deckyard.api_client import ApiClient
from tests.conftest import http_port
from tests.e2e.platform.test_tracing import collector  # noqa: F401  (the fixture)
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

SECRET = f"query-secret-{uuid.uuid4().hex}"


def test_ten_requests_are_ten_access_lines_found_by_their_request_ids(
    start_service,
    settings,
    collector,  # noqa: F811
):
    start_service("accounts")
    gateway = start_service(
        "gateway",
        LOG_FORMAT="json",
        LOG_LEVEL="INFO",
        OTEL_EXPORTER_OTLP_ENDPOINT=collector.url,
        OTEL_BSP_SCHEDULE_DELAY=50,
    )
    base = f"http://127.0.0.1:{http_port(gateway)}"
    token = ApiClient(base, settings).token(random_sub())
    sent = [  # path, token, the status, the route's template logged
        *[("/v1/me", token, 200, "/v1/me")] * 6,
        (f"/v1/me?api_key={SECRET}", token, 200, "/v1/me"),
        ("/v1/me", token[:-4] + "AAAA", 401, "/v1/me"),  # a forged signature
        ("/v1/me", None, 401, "/v1/me"),
        (f"/v1/players/{uuid.uuid4()}/nothing", token, 404, "<no route>"),
    ]
    request_ids = []
    for path, bearer, status, _ in sent:
        request_id = f"found-{uuid.uuid4().hex}"
        headers = {"X-Request-ID": request_id}
        if bearer is not None:
            headers["Authorization"] = f"Bearer {bearer}"
        answer = requests.get(base + path, headers=headers, timeout=30)
        assert (answer.status_code, answer.headers["X-Request-ID"]) == (status, request_id)
        request_ids.append(request_id)

    def served() -> dict[str, str] | None:
        """The trace of each request: its gateway span's, from the collector."""
        found = {
            s.attributes.get("deckyard.request_id"): s.trace_id
            for s in collector.spans
            if s.service == "deckyard-gateway" and s.kind == 2  # SERVER
        }
        return found if set(request_ids) <= set(found) else None

    traces = wait_for(served, timeout=30)
    output = gateway.output()
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    for request_id, (_, _, status, route) in zip(request_ids, sent, strict=True):
        [access] = [
            line
            for line in lines
            if line.get("request_id") == request_id and line["logger"] == "gateway.access"
        ]
        assert (access["method"], access["route"], access["status"]) == ("GET", route, status)
        assert access["service"] == "gateway" and access["duration_ms"] >= 0
        assert access["trace_id"] == traces[request_id]
    assert token not in output and token.split(".")[1] not in output
    assert SECRET not in output
