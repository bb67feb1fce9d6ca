"""The test clock for operators (``CLOCK_CONTROL=1``, a test stack only; 404 otherwise),
on the status port: ``GET /internal/clock`` shows the offset and the stack's time,
``POST /internal/clock {"advance": "49h"}`` moves every process's clock forward
(shared/clock_control.py keeps the offset; accounts answers, ``deckyard clock`` too).

The gateway's own clock is the ``Date`` header of its API answers, which the browser
client counts deadlines down from (web/src/lib/clock.ts): on a test stack uvicorn's is
off and ``DatedByTestClock`` writes it with this replica's copy of the offset, asked of
accounts again once half a second old (``RefreshedOffset``); an advance returns only
after that (shared/clock_control.py), so no answer after it carries an older date.
Token lifetimes stay on real time: an identity provider signs them with its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from email.utils import formatdate
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.http import RouteDoc, internal, json_input
from gateway.rpc import NamekoRpc
from shared.clock import RefreshedOffset
from shared.config import Settings
from shared.errors import DeckyardError, InvalidInput, NotFound

log = logging.getLogger(__name__)

OFFSET_TIMEOUT_SECONDS = 2.0  # a slow accounts: the Date header keeps the last offset


class DevClockRoutes:
    settings: Settings
    services: NamekoRpc
    _clock_copy: RefreshedOffset | None = None

    @property
    def _clock(self) -> RefreshedOffset:
        if self._clock_copy is None:
            self._clock_copy = RefreshedOffset()
        return self._clock_copy

    def _clock_on(self) -> None:
        if not self.settings.clock_control:
            raise NotFound("route_not_found", "There is no such route.")

    @internal(
        "GET",
        "/internal/clock",
        RouteDoc("The test clock's offset and the stack's time (CLOCK_CONTROL=1 only)"),
    )
    async def clock_show(self, request: Request) -> Any:
        """``GET /internal/clock`` -> ``{"offsetSeconds": 176400, "offset": "2d1h", "now":
        "...", "realNow": "..."}``"""
        self._clock_on()
        return await self.services.call("accounts", "clock_show")

    @internal(
        "POST",
        "/internal/clock",
        RouteDoc("Move every process's clock forward (CLOCK_CONTROL=1 only)"),
    )
    async def clock_advance(self, request: Request) -> Any:
        """``{"advance": "49h"}`` -> the new offset, as ``GET``; 422 ``validation_failed``
        for anything but a duration above zero (``7d``, ``1d2h30m``, ``90s``)."""
        self._clock_on()
        body = json_input(request)
        by = body.get("advance") if isinstance(body, dict) else None
        if not isinstance(by, str):
            raise InvalidInput(
                "validation_failed", "advance: a duration such as 49h", {"advance": ["text"]}
            )
        began = self._clock.began()
        view = await self.services.call("accounts", "clock_advance", by=by)
        self._clock.store(timedelta(seconds=view["offset_seconds"]), began)
        return view

    async def clock_offset(self) -> timedelta:
        """This replica's copy of the offset, asked again when stale; kept when accounts
        does not answer in time (it only grows: the copy is never ahead of the truth)."""
        copy = self._clock
        if not copy.stale():
            return copy.value
        began = copy.began()
        try:
            view = await self.services.call(
                "accounts", "clock_show", timeout=OFFSET_TIMEOUT_SECONDS
            )
        except DeckyardError:
            log.warning("test clock: offset not read; the Date header keeps the last one")
            return copy.value
        return copy.store(timedelta(seconds=view["offset_seconds"]), began)

    def dated(self, app: ASGIApp) -> ASGIApp:
        """``app`` with its Date header on the test clock when CLOCK_CONTROL=1, else ``app``."""
        return DatedByTestClock(app, self.clock_offset) if self.settings.clock_control else app


class DatedByTestClock:
    """An ASGI wrapper writing each HTTP answer's ``Date`` as the system's time plus the
    offset read when the request arrived (uvicorn's own Date is off: server.py)."""

    def __init__(self, app: ASGIApp, offset: Callable[[], Awaitable[timedelta]]) -> None:
        self.app = app
        self.offset = offset

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ahead = (await self.offset()).total_seconds()

        async def send_dated(message: Message) -> None:
            if message["type"] == "http.response.start":
                date = formatdate(time.time() + ahead, usegmt=True).encode()
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"date"]
                message = {**message, "headers": [*headers, (b"date", date)]}
            await send(message)

        await self.app(scope, receive, send_dated)
