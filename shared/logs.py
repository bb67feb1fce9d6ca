"""How every process logs: ``LOG_FORMAT`` (``text`` or ``json``) and ``LOG_LEVEL``.

JSON lines are for the log collectors of a cluster (one object per line: time, level,
logger, message, the request id when there is one, and the exception's traceback when
there is one); text is for people at a terminal. ``Throttled`` keeps a failure that
repeats every round (the outbox relay while the database is down) to one line per
interval instead of thousands.

``REQUEST_ID`` is the id of the request the code runs for: the gateway sets it from
``X-Request-ID`` (gateway/asgi.py) and sends it with every RPC (``nameko.request_id``);
a service's worker sets it from its call's context (shared/metrics.py, ``WorkerMetrics``),
an event's from the ``request_id`` its envelope carries (the outbox writes it, the relay
publishes it as the message's ``nameko.request_id``). Every log line written meanwhile
carries it (``RequestIdFilter``), and so does every event written meanwhile.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared.errors import DeckyardError

LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s%(request_suffix)s"

# One context per asyncio task (the gateway's requests) and per green thread (each
# nameko worker): a value set there is seen by that request's code only.
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "deckyard_request_id", default=None
)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (``record.request_id``, None
    outside a request); the text format shows it as `` [request <id>]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        record.request_id = request_id
        record.request_suffix = f" [request {request_id}]" if request_id else ""
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None)
        if request_id:
            entry["request_id"] = request_id
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


def configure_logging(log_format: str = "text", level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    handler.addFilter(ExpectedRefusals())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


class Throttled:
    """A repeating failure logged once with its traceback, then at most once per
    ``interval`` seconds as one line with the count since; and once when it stops."""

    def __init__(
        self,
        log: logging.Logger,
        what: str,
        interval: float = 30.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._what = what
        self._interval = interval
        self._monotonic = monotonic
        self._failures = 0  # in a row
        self._unreported = 0
        self._last_report = 0.0

    def failed(self, exc: BaseException) -> None:
        self._failures += 1
        self._unreported += 1
        now = self._monotonic()
        if self._failures == 1:
            self._log.error("%s failed", self._what, exc_info=(type(exc), exc, exc.__traceback__))
        elif now - self._last_report >= self._interval:
            self._log.error(
                "%s still failing: %d more time(s) since the last report (%s)",
                self._what,
                self._unreported,
                exc,
            )
        else:
            return
        self._unreported = 0
        self._last_report = now

    def succeeded(self) -> None:
        if self._failures:
            self._log.warning("%s works again after %d failure(s)", self._what, self._failures)
        self._failures = 0
        self._unreported = 0
