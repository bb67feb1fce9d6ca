"""The gateway's ASGI application: routing, bodies, CORS, request ids, problems.

One small dispatcher instead of a framework's middleware stack (each layer costs
every request): find the route, read the body within its limit, run the handler,
turn its value into camelCase JSON (gateway/casing.py) or its exception into
problem+json (gateway/problems.py). Starlette's ``Request``, ``Response`` and
``WebSocket`` are the objects handlers see.

* **Body limit** (``MAX_BODY_BYTES``): a declared length over it is a 413 before a
  byte is read; a body without a length (chunked) is read until one byte past it.
* **Request id**: the client's ``X-Request-ID`` (printable, at most 128 characters) or
  a new one; it goes to every RPC of the request (``nameko.request_id``) and back in
  the answer's ``X-Request-ID``.
* **CORS** for ``CORS_ORIGINS`` (gateway/cors.py); the status port answers none.
* **Metrics** (the API port's app only): every request counted and timed by its route's
  template, method and status (gateway/metrics.py), and one access line logged with
  them, the milliseconds and the request id (gateway/access_log.py).
* **Version prefix**: ``/v1/me`` is ``/me`` (the OpenAPI document's ``servers`` is
  ``/v1``). A versioned path reaches API routes and sockets only, never a file of the
  web client; the unversioned paths keep answering for the clients written before it.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from gateway.access_log import log_request
from gateway.casing import camelize
from gateway.cors import CorsPolicy
from gateway.http import BODY_STATE, REQUEST_ID, Route, path_values
from gateway.metrics import NO_ROUTE, WEB_CLIENT, RequestClock
from gateway.problems import (
    method_not_allowed,
    problem,
    response_for_exception,
    route_not_found,
)
from shared import tracing
from shared.errors import PayloadTooLarge

_USABLE_REQUEST_ID = re.compile(r"[\x21-\x7e]{1,128}")
_MATCHED = "deckyard.matched"  # the scope's key for the route ``_answer`` found
API_VERSION_PREFIX = "/v1"
_VERSIONED = "deckyard.versioned"  # the scope's key: the client asked for /v1/...

Handler = Callable[..., Awaitable[Any]]
SocketHandler = Callable[[WebSocket], Awaitable[None]]


@dataclass(frozen=True)
class Bound:
    route: Route
    handler: Handler


def _unversioned(scope: Scope) -> Scope:
    """``/v1/x`` as ``/x``, remembering that it was versioned; other paths unchanged."""
    path: str = scope["path"]
    if not path.startswith(API_VERSION_PREFIX + "/"):
        return scope
    stripped = path[len(API_VERSION_PREFIX) :]
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and raw.startswith(API_VERSION_PREFIX.encode() + b"/"):
        raw = raw[len(API_VERSION_PREFIX) :]
    return {**scope, "path": stripped, "raw_path": raw, _VERSIONED: True}


class RoutingTable:
    """Paths to handlers by method; one regular expression per path."""

    def __init__(self, bound: Iterable[Bound]) -> None:
        paths: dict[str, dict[str, Bound]] = {}
        for item in bound:
            for method in item.route.method.split(","):
                paths.setdefault(item.route.url, {})[method.strip().upper()] = item
        self._paths = [
            (next(iter(methods.values())).route.pattern, methods) for methods in paths.values()
        ]

    def match(self, path: str) -> tuple[dict[str, Bound], dict[str, str]] | None:
        for pattern, methods in self._paths:
            found = pattern.fullmatch(path)
            if found is not None:
                return methods, found.groupdict()
        return None


class GatewayApp:
    """An ASGI app over a routing table (the API port's, or the status port's)."""

    def __init__(
        self,
        routes: RoutingTable,
        cors: CorsPolicy,
        max_body_bytes: int,
        sockets: dict[str, SocketHandler] | None = None,
        lifespan: Callable[[], Any] | None = None,
        files: Callable[[str], Response] | None = None,
        measured: bool = False,
    ) -> None:
        self.routes = routes
        self.cors = cors
        self.max_body_bytes = max_body_bytes
        self.sockets = sockets or {}
        self.lifespan = lifespan  # an async context manager factory, run once per server
        self.files = files  # GET of a path no route has: a file of the web client, or 404
        self.measured = measured  # count and time every request (gateway/metrics.py)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket"):
            scope = _unversioned(scope)
        if kind == "http":
            if self.measured:
                response = await self._measured_answer(scope, receive)
            else:
                response = await self._answer(scope, receive)
            await response(scope, receive, send)
        elif kind == "websocket":
            handler = self.sockets.get(scope["path"])
            if handler is None:
                await send({"type": "websocket.close", "code": 4404})
                return
            await handler(WebSocket(scope, receive, send))
        elif kind == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        message = await receive()
        assert message["type"] == "lifespan.startup"
        if self.lifespan is None:
            await send({"type": "lifespan.startup.complete"})
            await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        manager = self.lifespan()
        try:
            await manager.__aenter__()
        except BaseException as exc:
            await send({"type": "lifespan.startup.failed", "message": str(exc)})
            raise
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
        await manager.__aexit__(None, None, None)
        await send({"type": "lifespan.shutdown.complete"})

    async def _measured_answer(self, scope: Scope, receive: Receive) -> Response:
        clock = RequestClock()
        status = 500
        try:
            response = await self._answer(scope, receive)
            status = response.status_code
            return response
        finally:
            route = self._route_label(scope, status)
            clock.done(route, scope["method"], status)
            if scope.get(_VERSIONED) and scope.get(_MATCHED) is not None:
                route = API_VERSION_PREFIX + route  # as the client called it
            log_request(scope["method"], route, status, clock.started)

    def _route_label(self, scope: Scope, status: int) -> str:
        """The route's template (a bounded label), never the path a client sent."""
        matched = scope.get(_MATCHED)  # what ``_answer`` found: the path is matched once
        if matched is not None:
            return str(next(iter(matched[0].values())).route.url)
        if self.files is not None and scope["method"] in ("GET", "HEAD") and status != 404:
            return WEB_CLIENT
        return NO_ROUTE

    async def _answer(self, scope: Scope, receive: Receive) -> Response:
        request = Request(scope, receive)
        request_id = _request_id(request.headers.get("x-request-id"))
        REQUEST_ID.set(request_id)
        origin = request.headers.get("origin")
        matched = self.routes.match(scope["path"])
        scope[_MATCHED] = matched
        if tracing.enabled():
            route = str(next(iter(matched[0].values())).route.url) if matched else None
            tracing.annotate_request(scope["method"], route, request_id)
        if CorsPolicy.is_preflight(
            scope["method"], origin, request.headers.get("access-control-request-method")
        ):
            assert origin is not None
            response = self._preflight(matched, origin)
        else:
            response = await self._dispatch(request, matched)
            for name, value in self.cors.response_headers(origin).items():
                if name == "Vary":
                    _add_vary(response, value)
                else:
                    response.headers[name] = value
        response.headers["X-Request-ID"] = request_id
        return response

    async def _dispatch(
        self, request: Request, matched: tuple[dict[str, Bound], dict[str, str]] | None
    ) -> Response:
        if matched is None:
            versioned = request.scope.get(_VERSIONED, False)
            if self.files is not None and request.method in ("GET", "HEAD") and not versioned:
                try:
                    return self.files(request.url.path)
                except Exception as exc:  # a problem too, never the server's bare text/plain
                    return response_for_exception(exc)
            return route_not_found()
        methods, groups = matched
        method = request.method
        bound = methods.get(method) or (methods.get("GET") if method == "HEAD" else None)
        if bound is None:
            return method_not_allowed(sorted({*methods, *(("HEAD",) if "GET" in methods else ())}))
        try:
            if method not in ("GET", "HEAD", "DELETE") or _declares_body(request):
                setattr(request.state, BODY_STATE, await self._read_body(request))
            result = await bound.handler(request, **path_values(bound.route.url, groups))
        except Exception as exc:  # every failure is a problem; unexpected ones are logged
            return response_for_exception(exc)
        return _response_from_result(result, bound.route.doc.status)

    async def _read_body(self, request: Request) -> bytes:
        limit = self.max_body_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise _too_large(limit)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            chunks.append(chunk)
        return b"".join(chunks)

    def _preflight(
        self, matched: tuple[dict[str, Bound], dict[str, str]] | None, origin: str
    ) -> Response:
        """A browser's preflight: 204 with the CORS headers for an allowed origin, a 403
        problem (no CORS header) for any other, 404 for a route that does not exist."""
        if matched is None:
            return route_not_found()
        headers = self.cors.preflight_headers(origin, matched[0])
        if headers is None:
            return problem(
                403,
                "cors_origin_not_allowed",
                "Forbidden",
                "this origin may not call the API from a browser (CORS_ORIGINS)",
            )
        return Response(status_code=204, headers=headers)


def _declares_body(request: Request) -> bool:
    return "content-length" in request.headers or "transfer-encoding" in request.headers


def _response_from_result(result: Any, status: int) -> Response:
    if isinstance(result, Response):
        return result
    if isinstance(result, tuple):
        status, result = result
    # The services answer in their own casing; the public API's is camelCase, here.
    body = json.dumps(camelize(result), separators=(",", ":"))
    return Response(body, status_code=status, media_type="application/json")


def _request_id(sent: str | None) -> str:
    if sent is not None and _USABLE_REQUEST_ID.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


def _add_vary(response: Response, value: str) -> None:
    present = [v.strip() for v in response.headers.get("vary", "").split(",") if v.strip()]
    if value not in present:
        response.headers["Vary"] = ", ".join([*present, value])


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge("payload_too_large", f"the body may be at most {limit} bytes")
