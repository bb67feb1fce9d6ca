"""psycopg's wait for eventlet: a socket that is ready now is used now.

psycopg drives the connection with a generator that says what it waits for (read,
write, or both) and a wait function that waits on the socket. Its ``wait_select``
under eventlet's green ``select`` parks the greenlet and lets the hub run every
other ready greenlet before it resumes, even when the socket is ready at once. A
plain statement waits for the server anyway, once; but a pipeline
(``shared.db.pipelined``: the player gate, a match saved with its steps, a purge)
asks "may I write?" before each command it sends, and each answer was a trip round
the hub. On a busy process that made a pipeline slower than its statements one by
one: 19 deletes with 20 other greenlets each busy 2 ms a turn took 1.7 s pipelined,
0.8 s one by one, and 0.08 s with this wait (issue 29).

``wait_ready_first`` asks the kernel first, without blocking (the unpatched
``poll``); only when the socket is not ready does it go green and wait, through
psycopg's own ``wait_select`` (its interval, timeout and errors unchanged). A
greenlet still yields whenever it waits for the server.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import psycopg.waiting
from eventlet.patcher import original
from psycopg.waiting import READY_R, READY_W, WAIT_R, WAIT_W

_select = original("select")
_READABLE = _select.POLLIN | _select.POLLPRI
_WRITABLE = _select.POLLOUT
_BROKEN = _select.POLLERR | _select.POLLHUP | _select.POLLNVAL


def wait_ready_first(
    gen: Generator[Any, Any, Any], fileno: int, interval: float = 0.0, timeout: float | None = None
) -> Any:
    """``psycopg.waiting.wait_select``, trying the socket before the hub."""
    return psycopg.waiting.wait_select(_ready_first(gen, fileno), fileno, interval, timeout)


def _ready_first(gen: Generator[Any, Any, Any], fileno: int) -> Generator[Any, Any, Any]:
    """``gen``, answered at once while its socket is ready; its waits passed on otherwise."""
    try:
        waiting = next(gen)
        while True:
            ready = _ready_now(fileno, waiting)
            if not ready:
                ready = yield waiting
            waiting = gen.send(ready)
    except StopIteration as done:
        return done.value


def _ready_now(fileno: int, waiting: int) -> int:
    """What the socket is ready for now, of what ``waiting`` asks; 0 if nothing (a broken
    socket counts as ready: the generator then reads the error)."""
    events = (_READABLE if waiting & WAIT_R else 0) | (_WRITABLE if waiting & WAIT_W else 0)
    poller = _select.poll()
    poller.register(fileno, events)
    found = poller.poll(0)
    if not found:
        return 0
    happened = found[0][1]
    if happened & _BROKEN:
        return (READY_R if waiting & WAIT_R else 0) | (READY_W if waiting & WAIT_W else 0)
    return (READY_R if happened & _READABLE else 0) | (READY_W if happened & _WRITABLE else 0)
