"""What a service's workers log: their service on every line, a failing timer throttled.

* Several services may share a process (``deckyard run`` with no ``--service``), so each
  worker names its own: ``SERVICE`` (shared/logs.py) is set for the worker's green
  thread only, from its container.
* A timer (``@timer``: battle's ``expire_overdue_turns``, accounts' ``sweep_deletions``,
  …) runs every few seconds; while its cause lasts (the database away, a bug in a row),
  nameko would log a full traceback at every tick. Here it is logged as ``Throttled``
  (shared/logs.py) logs the relay's rounds: the first failure with its traceback, then one
  line per 30 s with the count since it began, then one line when it works again.
  nameko's own record of a timer's failure is dropped, for the services that carry this
  provider only (``TimerFailures``, a filter on nameko's ``nameko.containers`` logger).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from nameko.extensions import DependencyProvider
from nameko.timer import Timer

from shared.logs import SERVICE, Throttled

log = logging.getLogger(__name__)

TIMER_REPORT_SECONDS = 30.0  # as the relay's: one line per scrape-ish interval


class WorkerLogs(DependencyProvider):  # type: ignore[misc]
    """Sets ``SERVICE`` for each worker, and throttles the logs of failing timers."""

    def __init__(
        self,
        interval: float = TIMER_REPORT_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval = interval
        self.monotonic = monotonic

    def setup(self) -> None:
        self._tokens: dict[Any, Any] = {}
        self._timers: dict[str, Throttled] = {}  # by the timer's method
        logging.getLogger("nameko.containers").addFilter(TIMER_FAILURES)  # once: same object

    def worker_setup(self, worker_ctx: Any) -> None:
        self._tokens[worker_ctx] = SERVICE.set(worker_ctx.service_name)

    def worker_result(self, worker_ctx: Any, result: Any = None, exc_info: Any = None) -> None:
        entrypoint = worker_ctx.entrypoint
        if not isinstance(entrypoint, Timer):
            return
        method = entrypoint.method_name
        failures = self._timers.get(method)
        if failures is None:
            what = f"{worker_ctx.service_name}.{method} (timer)"
            failures = Throttled(log, what, interval=self.interval, monotonic=self.monotonic)
            self._timers[method] = failures
        if exc_info:
            failures.failed(exc_info[1])
        else:
            failures.succeeded()

    def worker_teardown(self, worker_ctx: Any) -> None:
        token = self._tokens.pop(worker_ctx, None)
        if token is not None:
            SERVICE.reset(token)


class TimerFailures(logging.Filter):
    """Drops nameko's "error handling worker" record of a timer whose service carries
    ``WorkerLogs``: that provider logs the failure itself, throttled."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        worker_ctx: Any = args[0] if args else None
        entrypoint = getattr(worker_ctx, "entrypoint", None)
        if not isinstance(entrypoint, Timer) or not str(record.msg).endswith(
            "error handling worker %s: %s"
        ):
            return True
        return not any(isinstance(d, WorkerLogs) for d in worker_ctx.container.dependencies)


TIMER_FAILURES = TimerFailures()
