"""One access line per API request (logger ``gateway.access``, INFO).

uvicorn's own access log stays off (gateway/server.py): it writes the path a client
sent, query string included, and knows no route, request id or trace. This line has the
method, the route's template (``/v1/quest/attempts/<uuid:attempt_id>``, never the path
sent, so no id, query secret or personal datum a path or query may hold), the status and
the milliseconds; the request id and, with tracing on, the trace and span ids come with
every line (shared/logs.py). Never a header: the ``Authorization`` token stays out.

    {"logger": "gateway.access", "message": "GET /v1/me 200 12.3 ms", "service": "gateway",
     "request_id": "…", "trace_id": "…", "span_id": "…", "method": "GET",
     "route": "/v1/me", "status": 200, "duration_ms": 12.3, …}
"""

from __future__ import annotations

import logging
import time

from gateway.metrics import method_label

log = logging.getLogger("gateway.access")


def log_request(method: str, route: str, status: int, started: float) -> None:
    """``started``: the request's ``time.perf_counter()`` at its start."""
    if not log.isEnabledFor(logging.INFO):
        return
    milliseconds = round((time.perf_counter() - started) * 1000, 1)
    method = method_label(method)  # a client's own method is "other", as in the metrics
    fields = {"method": method, "route": route, "status": status, "duration_ms": milliseconds}
    log.info("%s %s %d %.1f ms", method, route, status, milliseconds, extra={"fields": fields})
