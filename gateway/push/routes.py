"""The push channel's routes: ``/stream`` (WebSocket) and ``GET /stream/sse`` (fallback).

WebSocket protocol (docs/api.md, "Push"):

1. the client opens ``/stream`` and sends, within ``AUTH_SECONDS``,
   ``{"type": "auth", "token": "<access token>", "lastId": "<id>"?}`` - the token goes
   in a message, never in the URL (URLs land in logs);
2. the server answers ``{"type": "ready", "playerId", "expiresAt"}``, then what the
   player missed after ``lastId`` or ``{"type": "resync"}`` (refetch: the gap is not
   known here), then every new message ``{"id", "type", "data"}`` as it happens;
3. a new ``auth`` message with a fresh token of the same subject extends the socket's
   life; at the token's expiry the socket closes with 4001 (``token_expired``).

Close codes: 4001 token expired, 4003 account closed or locked, 4004 no auth in time,
4008 slow consumer (reconnect with the last id), 4029 too many connections, 4401 a
refused token, 1012 the gateway is restarting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from gateway.auth import Identity
from gateway.casing import camelize
from gateway.http import RouteDoc, api
from gateway.problem_codes import PUSH
from gateway.push.hub import (
    AUTH_TIMEOUT,
    TOKEN_EXPIRED,
    TOO_MANY_CONNECTIONS,
    Connection,
    PushHub,
)
from gateway.routes.base import Caller
from shared.errors import DeckyardError, Forbidden, InvalidInput

AUTH_SECONDS = 10.0
REFUSED_TOKEN = 4401
HEARTBEAT_SECONDS = 15.0
MAX_CLIENT_MESSAGES_PER_MINUTE = 30
# ASCII digits: ``str.isdigit`` also takes other scripts' (read as another id) and
# superscripts (which ``int`` refuses: a 500).
_MESSAGE_ID = re.compile(r"[0-9]{1,20}")


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(camelize(value), separators=(",", ":"))


def _last_id(raw: Any) -> int | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str) and _MESSAGE_ID.fullmatch(raw):
        return int(raw)
    raise InvalidInput("invalid_last_id", "lastId is the id of a message this stream sent")


class PushRoutes(Caller):
    hub: PushHub

    def socket_routes(self) -> dict[str, Any]:
        return {"/stream": self.push_socket}

    async def _subscriber(self, token: str) -> tuple[Identity, str]:
        identity = await self.auth.verify_async(token)
        player = await self._active_player(identity)
        return identity, str(player["id"])

    def _open(self, player_id: str, last_id: int | None) -> tuple[Connection, bool]:
        """Register a connection and queue what it missed, with no await in between, so
        nothing published meanwhile comes twice or out of order. ``resync``: the gap
        after ``last_id`` is not known here."""
        connection = self.hub.connect(player_id)
        if connection is None:
            raise Forbidden(
                "too_many_connections", "this player has too many push connections open"
            )
        resync = False
        if last_id is not None:
            missed = self.hub.missed(player_id, last_id)
            resync = missed is None
            for message in missed or ():
                connection.offer(message)
        return connection, resync

    # -- WebSocket --------------------------------------------------------------------------

    async def push_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            hello = json.loads(await asyncio.wait_for(websocket.receive_text(), AUTH_SECONDS))
            if not isinstance(hello, dict) or hello.get("type") != "auth":
                raise InvalidInput("auth_expected", 'send {"type": "auth", "token": ...} first')
            identity, player_id = await self._subscriber(str(hello.get("token") or ""))
            connection, resync = self._open(player_id, _last_id(hello.get("lastId")))
        except TimeoutError:
            await websocket.close(AUTH_TIMEOUT)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        except (ValueError, DeckyardError) as exc:
            await _refuse(websocket, exc)
            return
        try:
            await websocket.send_text(_ready(player_id, identity, resync))
            await _serve(websocket, connection, identity, self)
        finally:
            self.hub.disconnect(connection)

    # -- Server-sent events -----------------------------------------------------------------

    @api(
        "GET",
        "/stream/sse",
        RouteDoc(
            "Your events as server-sent events (the fallback of the /stream WebSocket); "
            "Last-Event-ID resumes after the last message you saw",
            auth="player",
            content_type="text/event-stream",
            errors=(403, 422),
            tags=("push",),
            codes=PUSH,
            operation_id="streamEvents",
        ),
    )
    async def push_events(self, request: Request) -> StreamingResponse:
        """``GET /stream/sse`` with ``Authorization: Bearer <token>`` -> ``id: 41\\nevent:
        match.your_turn\\ndata: {"matchId": "...", "version": 7, ...}``"""
        identity = await self._identity(request)
        player_id = str((await self._active_player(identity))["id"])
        last_id = _last_id(
            request.headers.get("last-event-id") or request.query_params.get("lastId")
        )
        connection, resync = self._open(player_id, last_id)
        return StreamingResponse(
            self._sse(connection, identity, resync),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _sse(
        self, connection: Connection, identity: Identity, resync: bool
    ) -> AsyncIterator[str]:
        try:
            yield "retry: 3000\n\n"
            yield f"event: ready\ndata: {_ready(connection.player_id, identity, resync)}\n\n"
            while True:
                remaining = _expires_in(identity)
                if remaining <= 0:
                    yield f"event: close\ndata: {TOKEN_EXPIRED}\n\n"
                    return
                try:
                    item = await asyncio.wait_for(
                        connection.queue.get(), min(HEARTBEAT_SECONDS, remaining)
                    )
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if isinstance(item, int):
                    yield f"event: close\ndata: {item}\n\n"
                    return
                yield f"id: {item.id}\nevent: {item.type}\ndata: {_dumps(item.data)}\n\n"
        finally:
            self.hub.disconnect(connection)


def _ready(player_id: str, identity: Identity, resync: bool) -> str:
    ready: dict[str, Any] = {
        "type": "ready",
        "player_id": player_id,
        "expires_at": int(identity.claims.get("exp", 0)),
    }
    if resync:
        ready["resync"] = True
    return _dumps(ready)


def _expires_in(identity: Identity) -> float:
    return float(identity.claims.get("exp", 0)) - time.time()


async def _refuse(websocket: WebSocket, exc: BaseException) -> None:
    code = exc.code if isinstance(exc, DeckyardError) else "malformed_message"
    detail = exc.message if isinstance(exc, DeckyardError) else "send JSON messages"
    status = exc.status if isinstance(exc, DeckyardError) else 400
    close = {401: REFUSED_TOKEN, 403: 4003}.get(status, 4400)
    if code == "too_many_connections":
        close = TOO_MANY_CONNECTIONS
    with contextlib.suppress(Exception):
        await websocket.send_text(_dumps({"type": "error", "code": code, "detail": detail}))
        await websocket.close(close)


async def _serve(
    websocket: WebSocket, connection: Connection, identity: Identity, routes: PushRoutes
) -> None:
    """Send what the hub queues, read what the client sends, end at the token's expiry."""
    expiry = {"identity": identity}

    async def write() -> None:
        while True:
            item = await connection.queue.get()
            if isinstance(item, int):
                await websocket.close(item)
                return
            await websocket.send_text(_dumps(item.wire()))

    async def read() -> None:
        sent: list[float] = []
        while True:
            text = await websocket.receive_text()
            now = time.monotonic()
            sent = [t for t in sent if now - t < 60] + [now]
            if len(sent) > MAX_CLIENT_MESSAGES_PER_MINUTE:
                raise InvalidInput("too_many_messages", "at most 30 messages a minute")
            message = json.loads(text)
            if isinstance(message, dict) and message.get("type") == "auth":
                renewed = await routes.auth.verify_async(str(message.get("token") or ""))
                if renewed.sub != identity.sub:
                    raise Forbidden("subject_changed", "a socket belongs to one player")
                expiry["identity"] = renewed
                await websocket.send_text(_ready(connection.player_id, renewed, resync=False))
            elif isinstance(message, dict) and message.get("type") == "ping":
                await websocket.send_text('{"type":"pong"}')

    async def expire() -> None:
        while (remaining := _expires_in(expiry["identity"])) > 0:
            await asyncio.sleep(min(remaining, 60.0))
        connection.close(TOKEN_EXPIRED)

    tasks = [asyncio.create_task(job()) for job in (write, read, expire)]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            error = task.exception()
            if isinstance(error, (ValueError, DeckyardError)):
                await _refuse(websocket, error)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await websocket.close()
