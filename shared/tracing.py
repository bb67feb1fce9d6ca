"""OpenTelemetry traces when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set; nothing at all otherwise.

``configure()`` runs once at a process's start (gateway/server.py, deckyard/runner.py).
Without the variable it returns at once: no tracer provider, no OpenTelemetry import,
and every hook below is one ``if _on is None`` check. With it, spans go to the
collector over OTLP/HTTP (protobuf), batched by a background thread, and one trace
follows a request through the platform:

* the gateway's **HTTP request** (``SERVER``; the ASGI instrumentation, named by its
  route's template, never the path a client sent), and each **RPC** it makes
  (``CLIENT``, gateway/rpc.py), whose context travels as the nameko context header
  ``nameko.traceparent``, beside ``nameko.request_id``;
* the service's **entrypoint** (``SERVER`` for an RPC, ``CONSUMER`` for an event;
  ``WorkerTracing``, shared/worker_tracing.py: this module stays free of nameko and
  eventlet, which the asyncio gateway does not load), a child of the caller's span,
  and its **SQL statements** (the SQLAlchemy instrumentation on the service's engine;
  only inside a traced worker);
  calls the worker makes with nameko's own proxies carry its context on;
* an **event** it writes: the outbox envelope keeps the writer's context
  (``traceparent``, as it keeps ``request_id``); the relay's **publish** (``PRODUCER``)
  is its child and puts its own context on the message, so the consumer's span is a
  child of the publish, in the same trace, retries and parked messages included.

Every span a request causes has its id as ``deckyard.request_id``, and every log line
written inside a span has the span's ``trace_id`` and ``span_id`` (``current_trace_ids``,
read by shared/logs.py). The service name is
``OTEL_SERVICE_NAME``, else ``deckyard-<service>`` (one provider per service when several
share a process). The other standard variables apply (``OTEL_TRACES_SAMPLER``,
``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_BSP_*``); docs/operations.md, "Traces".
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from shared import logs
from shared.errors import outcome_of
from shared.logs import REQUEST_ID

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
REQUEST_ID_ATTRIBUTE = "deckyard.request_id"
TRACEPARENT = "traceparent"  # W3C trace context: the envelope's key, the header's suffix
CONTEXT_HEADER_PREFIX = "nameko."  # nameko hands these headers to the worker's context
CLIENT_CONTEXT_HEADERS = (b"traceparent", b"tracestate", b"baggage")
FAILED_OUTCOMES = ("unavailable", "error")  # a refusal (4xx) is the API working: not an error


class _Tracing:
    """Tracing on: the exporter's address and a tracer provider per service name."""

    def __init__(self, traces_url: str, service_name: str) -> None:
        self.traces_url = traces_url
        self.service_name = service_name  # OTEL_SERVICE_NAME, or "" for deckyard-<service>
        self.providers: dict[str, TracerProvider] = {}

    def provider(self, service: str) -> TracerProvider:
        name = self.service_name or f"deckyard-{service}"
        provider = self.providers.get(name)
        if provider is None:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor

            provider = TracerProvider(resource=Resource.create({"service.name": name}))
            provider.add_span_processor(_request_id_processor())
            provider.add_span_processor(
                BatchSpanProcessor(OTLPSpanExporter(endpoint=self.traces_url))
            )
            self.providers[name] = provider
        return provider


_on: _Tracing | None = None


def configure(environ: Mapping[str, str] | None = None) -> bool:
    """Turn tracing on if the environment names an OTLP endpoint; True if it did."""
    global _on
    env = os.environ if environ is None else environ
    traces_url = env.get(ENDPOINT_VARIABLES[0], "").strip()
    endpoint = env.get(ENDPOINT_VARIABLES[1], "").strip()
    disabled = env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"
    if disabled or not (traces_url or endpoint):
        return False
    # As the OTLP exporter itself reads them: the traces' own URL as is, else the base + path.
    url = traces_url or endpoint.rstrip("/") + "/v1/traces"
    _on = _Tracing(url, env.get("OTEL_SERVICE_NAME", "").strip())
    logs.read_trace_ids_with(current_trace_ids)  # every log line names its span
    return True


def enabled() -> bool:
    return _on is not None


def flush() -> None:
    """Export every finished span now (the exporter batches them otherwise)."""
    if _on is not None:
        for provider in _on.providers.values():
            provider.force_flush()


def shutdown() -> None:
    """Export what is left and turn tracing off (tests; a process's exit does it itself)."""
    global _on
    if _on is not None:
        for provider in _on.providers.values():
            provider.shutdown()
    _on = None
    logs.read_trace_ids_with(None)


def current_trace_ids() -> tuple[str, str] | None:
    """The current span's trace id and span id in hex (as W3C ``traceparent`` writes
    them), or None outside a span; "current" is the caller's context: its asyncio task,
    or its green thread (a nameko worker's span, attached by ``WorkerTracing``)."""
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return format(context.trace_id, "032x"), format(context.span_id, "016x")


def tracer(service: str) -> Tracer:
    assert _on is not None, "tracing is off"
    return _on.provider(service).get_tracer("deckyard")


def _request_id_processor() -> Any:
    from opentelemetry.sdk.trace import SpanProcessor

    class RequestIdAttribute(SpanProcessor):
        """Every span started while a request runs carries its id (the SQL spans, the
        gateway's RPC spans); the spans that start before it is known set it themselves."""

        def on_start(self, span: Any, parent_context: Any = None) -> None:
            request_id = REQUEST_ID.get()
            if request_id:
                span.set_attribute(REQUEST_ID_ATTRIBUTE, request_id)

    return RequestIdAttribute()


def context_headers(prefix: str = "") -> dict[str, str]:
    """The current span's context as W3C ``traceparent`` (and ``tracestate``) entries."""
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    carrier: dict[str, str] = {}
    TraceContextTextMapPropagator().inject(carrier)
    return {prefix + key: value for key, value in carrier.items()}


def parent_context(carrier: Mapping[str, Any]) -> Any:
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    return TraceContextTextMapPropagator().extract(carrier)


def record_failure(span: Span, exc: BaseException | None) -> None:
    """Record a failure on a span; only a failure of ours (not a refusal) is an error."""
    from opentelemetry.trace import StatusCode

    if exc is None:
        return
    span.record_exception(exc)
    if outcome_of(exc) in FAILED_OUTCOMES:
        span.set_status(StatusCode.ERROR, type(exc).__name__)


# -- the gateway ------------------------------------------------------------------------------


def traced_asgi(app: Any) -> Any:
    """The API's ASGI app, its HTTP requests traced (sockets and lifespan as they were)."""
    if _on is None:
        return app
    from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware

    traced = OpenTelemetryMiddleware(
        app,
        tracer_provider=_on.provider("gateway"),
        # The method only: the route's template is known once matched (annotate_request).
        default_span_details=lambda scope: (scope.get("method", "HTTP"), {}),
        exclude_spans=["receive", "send"],  # one span per request, not one per message
    )

    async def dispatch(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        # The gateway starts every trace: a client's trace context (and so its say on
        # sampling) is dropped at the edge.
        headers = [(k, v) for k, v in scope["headers"] if k not in CLIENT_CONTEXT_HEADERS]
        await traced({**scope, "headers": headers}, receive, send)

    return dispatch


def annotate_request(method: str, route: str | None, request_id: str) -> None:
    """Name the request's span by its route's template, and give it the request's id."""
    from opentelemetry import trace

    span = trace.get_current_span()
    if span.is_recording():
        span.set_attribute(REQUEST_ID_ATTRIBUTE, request_id)
        if route is not None:
            span.set_attribute("http.route", route)
            span.update_name(f"{method} {route}")


@contextlib.contextmanager
def rpc_client_span(service: str, method: str) -> Iterator[dict[str, str]]:
    """A span for one RPC of the gateway; yields the nameko context headers that carry it."""
    from opentelemetry.trace import SpanKind

    with tracer("gateway").start_as_current_span(
        f"{service}.{method}",
        kind=SpanKind.CLIENT,
        attributes={"rpc.system": "nameko", "rpc.service": service, "rpc.method": method},
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield context_headers(CONTEXT_HEADER_PREFIX)
        except BaseException as exc:
            record_failure(span, exc)
            raise


# -- the services -----------------------------------------------------------------------------


def write_trace_context(envelope: MutableMapping[str, Any]) -> None:
    """Keep the writer's span in an event's envelope (the outbox), as its request id."""
    if _on is not None:
        traceparent = context_headers().get(TRACEPARENT)
        if traceparent:
            envelope[TRACEPARENT] = traceparent


def publish_span(
    service: str, routing_key: str, envelope: Mapping[str, Any], headers: dict[str, Any]
) -> contextlib.AbstractContextManager[object]:
    """Around the relay's publication of one event: sets the message's ``traceparent``
    header (the writer's, or with tracing on, that of a publish span, the writer's child)."""
    traceparent = envelope.get(TRACEPARENT)
    if traceparent:
        headers[CONTEXT_HEADER_PREFIX + TRACEPARENT] = traceparent
    if _on is None:
        return contextlib.nullcontext()
    return _publishing(service, routing_key, envelope, headers)


@contextlib.contextmanager
def _publishing(
    service: str, routing_key: str, envelope: Mapping[str, Any], headers: dict[str, Any]
) -> Iterator[object]:
    from opentelemetry.trace import SpanKind

    parent = parent_context({TRACEPARENT: envelope[TRACEPARENT]} if TRACEPARENT in envelope else {})
    attributes = {
        "messaging.system": "rabbitmq",
        "messaging.operation.type": "publish",
        "messaging.destination.name": routing_key,
    }
    if envelope.get("request_id"):
        attributes[REQUEST_ID_ATTRIBUTE] = str(envelope["request_id"])
    with tracer(service).start_as_current_span(
        f"{routing_key} publish",
        context=parent,
        kind=SpanKind.PRODUCER,
        attributes=attributes,
    ) as span:
        headers.update(context_headers(CONTEXT_HEADER_PREFIX))
        yield span


def instrument_engine(engine: Any, service: str) -> None:
    """SQL statements as spans (the SQLAlchemy instrumentation), inside traced workers
    only: the relay's and the gauges' rounds every second would each start a trace."""
    if _on is None:
        return
    from opentelemetry.instrumentation.sqlalchemy.engine import EngineTracer
    from opentelemetry.metrics import NoOpMeter

    counter = NoOpMeter("deckyard").create_up_down_counter("db.client.connections.usage")
    EngineTracer(_ChildSpansOnly(tracer(service)), engine, counter)


class _ChildSpansOnly:
    """A tracer that starts a span only under a recording one, else a non-recording span."""

    def __init__(self, tracer: Tracer) -> None:
        self._tracer = tracer

    def start_span(self, *args: Any, **kwargs: Any) -> Span:
        from opentelemetry import trace

        if not trace.get_current_span().is_recording():
            return trace.INVALID_SPAN
        return self._tracer.start_span(*args, **kwargs)
