"""How every process logs: ``LOG_FORMAT`` (``text`` or ``json``) and ``LOG_LEVEL``.

JSON lines are for the log collectors of a cluster (one object per line: time, level,
logger, message, the service, the request id, trace id and span id when there are
some, a line's own fields such as the gateway's access line's, and the exception's
traceback when there is one); text is for people at a terminal. ``Throttled`` keeps a
failure that repeats every round (the outbox relay while the database is down, a timer
that keeps failing) to one line per interval instead of thousands.

``REQUEST_ID`` is the id of the request the code runs for: the gateway sets it from
``X-Request-ID`` (gateway/asgi.py) and sends it with every RPC (``nameko.request_id``);
a service's worker sets it from its call's context (shared/metrics.py, ``WorkerMetrics``),
an event's from the ``request_id`` its envelope carries (the outbox writes it, the relay
publishes it as the message's ``nameko.request_id``). Every log line written meanwhile
carries it (``RequestIdFilter``), and so does every event written meanwhile.

``SERVICE`` is the service whose worker runs (shared/worker_logs.py sets it per worker,
since one process may run several services), else the process's own (``gateway``, or
the one service a process runs); the trace and span ids are those of the current span
when tracing is on (shared/tracing.py hands its reader over). Each is read from the
context of the code that logs (its asyncio task, its green thread), so a line written
outside a worker or a span has none rather than another's.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import IO, Any

from shared.errors import DeckyardError

LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s%(request_suffix)s"

# One context per asyncio task (the gateway's requests) and per green thread (each
# nameko worker): a value set there is seen by that request's code only.
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "deckyard_request_id", default=None
)
SERVICE: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "deckyard_service", default=None
)
TraceIds = Callable[[], "tuple[str, str] | None"]  # (trace id, span id) of the current span

_process_service: str | None = None  # the service of a process that runs only one
_trace_ids: TraceIds | None = None  # tracing on: shared/tracing.py's reader


def read_trace_ids_with(reader: TraceIds | None) -> None:
    """shared/tracing.py, as tracing goes on (its reader) or off (None)."""
    global _trace_ids
    _trace_ids = reader


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (``record.request_id``, None
    outside a request), and its service, trace id and span id (None when there is
    none); the text format shows the request as `` [request <id>]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        record.request_id = request_id
        record.request_suffix = f" [request {request_id}]" if request_id else ""
        record.service = SERVICE.get() or _process_service
        ids = _trace_ids() if _trace_ids is not None else None
        record.trace_id, record.span_id = ids if ids is not None else (None, None)
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("service", "request_id", "trace_id", "span_id"):
            value = getattr(record, key, None)
            if value:
                entry[key] = value
        fields = getattr(
            record, "fields", None
        )  # a line's own: log.info(..., extra={"fields": {}})
        if fields:
            entry.update({k: v for k, v in fields.items() if k not in entry})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class ExpectedRefusals(logging.Filter):
    """nameko logs every exception a worker raises with its traceback, as an ERROR (or a
    WARNING when the entrypoint expects it). A refusal the caller caused (a bad token, a
    stale version: a ``DeckyardError`` with a 4xx status) is the API working as designed:
    one INFO line with its code, no traceback. Anything else keeps nameko's record."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, DeckyardError) and exc.status < 500:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = "refused (%s %s): %s", (exc.status, exc.code, exc.message)
            record.exc_info, record.exc_text = None, None
            # The logger let it through as an ERROR; as an INFO it must pass LOG_LEVEL too.
            return logging.getLogger().isEnabledFor(logging.INFO)
        return True


def log_handler(log_format: str = "text", stream: IO[str] | None = None) -> logging.Handler:
    """The handler every process logs through (to stderr unless ``stream``)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    handler.addFilter(ExpectedRefusals())
    handler.addFilter(RequestIdFilter())
    return handler


def configure_logging(
    log_format: str = "text", level: str = "INFO", service: str | None = None
) -> None:
    """``service``: the process's own, for the lines written outside any worker."""
    global _process_service
    _process_service = service
    root = logging.getLogger()
    root.handlers[:] = [log_handler(log_format)]
    root.setLevel(level.upper())


class Throttled:
    """A repeating failure logged once with its traceback, then at most once per
    ``interval`` seconds as one line with the count since it began; and once when it
    stops. ``monotonic`` spaces the lines, ``wall`` dates the first failure."""

    def __init__(
        self,
        log: logging.Logger,
        what: str,
        interval: float = 30.0,
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._log = log
        self._what = what
        self._interval = interval
        self._monotonic = monotonic
        self._wall = wall
        self._failures = 0  # in a row
        self._since = ""  # when the first of them happened (UTC, to the second)
        self._last_report = 0.0

    def failed(self, exc: BaseException) -> None:
        self._failures += 1
        now = self._monotonic()
        if self._failures == 1:
            self._since = self._wall().astimezone(UTC).isoformat(timespec="seconds")
            self._log.error("%s failed", self._what, exc_info=(type(exc), exc, exc.__traceback__))
        elif now - self._last_report >= self._interval:
            self._log.error(
                "%s still failing: %d times since %s (the last: %s)",
                self._what,
                self._failures,
                self._since,
                exc,
            )
        else:
            return
        self._last_report = now

    def succeeded(self) -> None:
        if self._failures:
            self._log.warning(
                "%s works again after %d failure(s) since %s",
                self._what,
                self._failures,
                self._since,
            )
        self._failures = 0
