"""A span for every RPC and event-handler worker of a service, when tracing is on
(shared/tracing.py; apart from it because it is nameko's, and the gateway loads no nameko
worker machinery)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nameko.events import EventHandler
from nameko.extensions import DependencyProvider
from nameko.rpc import Rpc

from shared import tracing

if TYPE_CHECKING:
    from opentelemetry.trace import Span


class WorkerTracing(DependencyProvider):  # type: ignore[misc]
    """A span for every RPC and event-handler worker, a child of its caller's or its
    event's publisher's span (the ``traceparent`` of the message's context)."""

    def setup(self) -> None:
        self._spans: dict[Any, tuple[Span, object]] = {}

    def worker_setup(self, worker_ctx: Any) -> None:
        if not tracing.enabled():
            return
        from opentelemetry import context, trace
        from opentelemetry.trace import SpanKind

        entrypoint = worker_ctx.entrypoint
        service, method = worker_ctx.service_name, entrypoint.method_name
        if isinstance(entrypoint, Rpc):
            kind = SpanKind.SERVER
            attributes = {"rpc.system": "nameko", "rpc.service": service, "rpc.method": method}
        elif isinstance(entrypoint, EventHandler):
            kind = SpanKind.CONSUMER
            attributes = {
                "messaging.system": "rabbitmq",
                "messaging.operation.type": "process",
                "messaging.destination.name": entrypoint.queue.name,
                "deckyard.event": f"{entrypoint.source_service}.{entrypoint.event_type}",
            }
        else:
            return  # timers, health and metrics scrapes: not part of a request
        parent = tracing.parent_context(worker_ctx.context_data)
        span = tracing.tracer(service).start_span(
            f"{service}.{method}", context=parent, kind=kind, attributes=attributes
        )
        request_id = worker_ctx.context_data.get("request_id")
        if request_id:
            span.set_attribute(tracing.REQUEST_ID_ATTRIBUTE, str(request_id))
        token = context.attach(trace.set_span_in_context(span, parent))
        # nameko passes a worker's context on to the calls it makes: this span's, now.
        worker_ctx.data.update(tracing.context_headers())
        self._spans[worker_ctx] = (span, token)

    def worker_result(self, worker_ctx: Any, result: Any = None, exc_info: Any = None) -> None:
        started = self._spans.get(worker_ctx)
        if started is not None and exc_info:
            tracing.record_failure(started[0], exc_info[1])

    def worker_teardown(self, worker_ctx: Any) -> None:
        started = self._spans.pop(worker_ctx, None)
        if started is not None:
            from opentelemetry import context

            span, token = started
            span.end()
            context.detach(token)  # type: ignore[arg-type]
