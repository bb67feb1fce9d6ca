"""Tracing is on only with an OTLP endpoint; off, OpenTelemetry is never even imported."""

import subprocess
import sys

import pytest

from shared import tracing


@pytest.fixture(autouse=True)
def tracing_off_afterwards():
    yield
    tracing.shutdown()


def test_without_an_endpoint_no_opentelemetry_module_is_loaded_by_any_process_code():
    code = (
        "import sys; from shared import tracing; import gateway.server, gateway.rpc;"
        "assert 'eventlet' not in sys.modules;"  # the asyncio gateway loads no eventlet
        "import deckyard.runner, shared.health, shared.outbox, shared.db;"
        "assert tracing.configure({}) is False and not tracing.enabled();"
        "app = object(); assert tracing.traced_asgi(app) is app;"
        "loaded = sorted(m for m in sys.modules if m.startswith('opentelemetry'));"
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_endpoint_turns_it_on_and_names_the_traces_url_as_the_exporter_does():
    assert tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/"})
    assert tracing._on is not None and tracing._on.traces_url == "http://collector:4318/v1/traces"
    traces_only = {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/custom"}
    assert tracing.configure(traces_only)
    assert tracing._on.traces_url == "http://collector:4318/custom"


def test_the_sdk_switch_keeps_it_off():
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"}
    assert tracing.configure(env) is False and not tracing.enabled()


def test_each_service_is_named_unless_the_operator_names_the_process():
    tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    names = {
        tracing._on.provider(s).resource.attributes["service.name"] for s in ("cards", "battle")
    }
    assert names == {"deckyard-cards", "deckyard-battle"}
    tracing.configure(
        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SERVICE_NAME": "cards-eu"}
    )
    assert tracing._on.provider("cards") is tracing._on.provider("battle")
    assert tracing._on.provider("cards").resource.attributes["service.name"] == "cards-eu"


def test_an_event_written_outside_a_span_carries_no_trace_context():
    tracing.configure({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    envelope: dict = {}
    tracing.write_trace_context(envelope)
    assert envelope == {}
    with tracing.tracer("accounts").start_as_current_span("writer") as span:
        tracing.write_trace_context(envelope)
    trace_id = format(span.get_span_context().trace_id, "032x")
    assert envelope["traceparent"].split("-")[1] == trace_id
