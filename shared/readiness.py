"""Readiness checks that cost nothing when asked often, with no framework in them.

A readiness probe asks whether *this process* can serve: its own links (the broker;
a service's database), never the other processes (a crash-looping service must not
take every gateway pod out of its Service). And a probe that anyone can call must
not be a way to load the broker: ``CachedCheck`` runs the real check at most once per
``ttl`` seconds, one caller at a time; everyone else gets the last answer.
``BrokerLink`` keeps one connection to the broker for the whole process and asks it
for a round trip, instead of opening a connection per call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 1.0


class CachedCheck:
    """A yes/no check run at most once per ``ttl``; callers in between get the last answer.

    While one caller runs the check, the others do not wait for it: they get the last
    answer (``False`` before the first check ends), so a flood of probes costs one check.
    """

    def __init__(
        self,
        check: Callable[[], bool],
        ttl: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._check = check
        self._ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()  # green under eventlet's monkey patching
        self._last = False
        self._checked_at: float | None = None

    def __call__(self) -> bool:
        if self._checked_at is not None and self._clock() - self._checked_at < self._ttl:
            return self._last
        if not self._lock.acquire(blocking=False):
            return self._last  # someone is checking right now
        try:
            try:
                result = bool(self._check())
            except Exception:  # a check that fails says "not ready"; the reason is logged
                log.warning("readiness check failed", exc_info=True)
                result = False
            self._last, self._checked_at = result, self._clock()
            return result
        finally:
            self._lock.release()


class BrokerLink:
    """One long-lived broker connection, asked for a round trip (``basic.qos``, which the
    broker answers and which changes nothing on a channel that consumes nothing).

    Connected once and kept; after a failure it is dropped and opened again on the next
    check, so a broker that comes back is seen at the next check after it does.
    """

    def __init__(
        self,
        uri: str,
        timeout: float = 2.0,
        connect: Callable[[str, float], Any] | None = None,
    ) -> None:
        self._uri = uri
        self._timeout = timeout
        self._connect = connect or _kombu_connection
        self._connection: Any = None

    def check(self) -> bool:
        try:
            if self._connection is None:
                self._connection = self._connect(self._uri, self._timeout)
            self._connection.default_channel.basic_qos(0, 0, False)
            return True
        except Exception:
            self.drop()
            return False

    def drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.release()
            except Exception:  # already broken: nothing more to close
                log.debug("closing a broken broker connection failed", exc_info=True)


def _kombu_connection(uri: str, timeout: float) -> Any:
    from kombu.connection import Connection

    connection = Connection(uri, connect_timeout=timeout)
    connection.ensure_connection(max_retries=1)
    return connection
