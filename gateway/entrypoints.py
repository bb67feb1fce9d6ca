"""The gateway's HTTP entrypoint: JSON in and out, problem+json for errors.

``api`` is nameko's ``@http`` with three changes: a response body is any JSON
value, its member names made camelCase (gateway/casing.py); every failure
goes through ``gateway.problems``; and the route keeps
its documentation (summary, schemas, auth) for the OpenAPI document. Unknown
routes and wrong methods are answered as problem+json too, by the web server.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import eventlet.wsgi
from marshmallow import Schema
from nameko.web.handlers import HttpRequestHandler
from nameko.web.server import WsgiApp, parse_address
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request, Response

from gateway.casing import camelize
from gateway.cors import CorsPolicy
from gateway.problems import _HTTP_CODES, problem, response_for_exception
from shared.config import settings_from_nameko_config
from shared.errors import BadRequest, InvalidInput, PayloadTooLarge
from shared.web_server import ExclusiveWebServer

DEFAULT_MAX_BODY_BYTES = 64 * 1024

# eventlet's HTTP server refuses a header line of 8 KiB with a bare 400 before any
# of our code runs, so the token verifier's own limit (8 KiB, gateway/auth.py) could
# never answer. Twice that lets an oversized token reach it and get a problem+json
# 401; beyond 16 KiB the transport still refuses the line outright.
eventlet.wsgi.MAX_HEADER_LINE = 16 * 1024


class ProblemWsgiApp(WsgiApp):  # type: ignore[misc]
    def __init__(self, server: Any, cors: CorsPolicy) -> None:
        super().__init__(server)
        self.cors = cors

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ, shallow=True)
        adapter = self.url_map.bind_to_environ(environ)
        origin = request.headers.get("Origin")
        requested = request.headers.get("Access-Control-Request-Method")
        if CorsPolicy.is_preflight(request.method, origin, requested):
            assert origin is not None
            return self._preflight(adapter, origin)(environ, start_response)
        try:
            provider, values = adapter.match()
            request.path_values = values  # type: ignore[attr-defined]
            response = provider.handle_request(request)
        except HTTPException as exc:
            response = response_for_exception(exc)
        for name, value in self.cors.response_headers(origin).items():
            if name == "Vary":
                response.vary.add(value)
            else:
                response.headers[name] = value
        return response(environ, start_response)

    def _preflight(self, adapter: Any, origin: str) -> Response:
        """A browser's preflight: 204 with the CORS headers for an allowed origin, a 403
        problem (no CORS header) for any other, 404 for a route that does not exist."""
        methods = adapter.allowed_methods()
        if not methods:
            code, detail = _HTTP_CODES[404]
            return problem(404, code, "Not Found", detail)
        headers = self.cors.preflight_headers(origin, methods)
        if headers is None:
            return problem(
                403,
                "cors_origin_not_allowed",
                "Forbidden",
                "this origin may not call the API from a browser (CORS_ORIGINS)",
            )
        response = Response(status=204, headers=headers)
        del response.headers["Content-Type"]
        return response


class ProblemWebServer(ExclusiveWebServer):
    cors = True  # the API answers browsers of the configured origins

    def get_wsgi_app(self) -> ProblemWsgiApp:
        policy = cors_policy(self.container.config) if self.cors else CorsPolicy()
        return ProblemWsgiApp(self, policy)


def cors_policy(config: Mapping[str, Any]) -> CorsPolicy:
    """The settings' ``CORS_ORIGINS``; a ``CORS_ORIGINS`` key in the nameko config (a
    comma-separated string, as in the environment) overrides it (tests)."""
    override = config.get("CORS_ORIGINS")
    if override is not None:
        return CorsPolicy.of(str(override).split(","))
    return CorsPolicy.of(settings_from_nameko_config(config).cors_origins)


STATUS_SERVER_CONFIG_KEY = "STATUS_SERVER_ADDRESS"


class StatusWebServer(ProblemWebServer):
    """The gateway's internal listener (``STATUS_PORT``): routes for operators, never
    reachable through the Ingress, whose Service exposes only the API port. Without an
    address in the config it takes a free loopback port (tests start many gateways)."""

    cors = False  # no browser has business here

    @property
    def bind_addr(self) -> tuple[str, int]:
        address: tuple[str, int] = parse_address(
            self.container.config.get(STATUS_SERVER_CONFIG_KEY, "127.0.0.1:0")
        )
        return address


@dataclass(frozen=True)
class RouteDoc:
    summary: str
    response: type[Schema] | None = None
    request: type[Schema] | None = None
    auth: str = "none"  # "none", "player" or "author"
    status: int = 200
    errors: tuple[int, ...] = ()
    tags: tuple[str, ...] = field(default_factory=tuple)
    content_type: str = "application/json"
    # Other statuses answered with the response schema, not problem+json (/ready's 503).
    also: tuple[int, ...] = ()
    many: bool = False  # the answer is a JSON array of ``response``
    query: type[Schema] | None = None  # the query parameters the route reads
    headers: tuple[dict[str, Any], ...] = ()  # OpenAPI parameters "in": "header" it reads
    # The problem codes of its area, by status (gateway/problem_codes.py); the OpenAPI
    # document enumerates them with the gateway's own for every status the route lists.
    codes: Mapping[int, tuple[str, ...]] = field(default_factory=dict, hash=False)
    # OpenAPI operationId; derived from the handler's name when empty (gateway/openapi.py).
    operation_id: str = ""


class ApiEntrypoint(HttpRequestHandler):  # type: ignore[misc]
    server = ProblemWebServer()

    def __init__(self, method: str, url: str, doc: RouteDoc, **kwargs: Any) -> None:
        self.doc = doc
        self._signatures_checked: set[tuple[int, frozenset[str]]] = set()
        super().__init__(method, url, **kwargs)

    def check_signature(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """nameko's check (``inspect.getcallargs``, 5% of the gateway's CPU) looks only at
        how many arguments come and their names, which are the same for every request of
        a route: check each shape once."""
        shape = (len(args), frozenset(kwargs))
        if shape not in self._signatures_checked:
            super().check_signature(args, kwargs)
            self._signatures_checked.add(shape)

    def handle_request(self, request: Request) -> Response:
        limit = self.container.config.get("MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
        if request.content_length is not None and request.content_length > limit:
            return response_for_exception(_too_large(limit))
        if request.content_length is None and _chunked(request):
            # Without a length werkzeug would read the body as empty. Read at most one
            # byte past the limit (eventlet de-chunks): more is a 413, the rest is the body.
            try:
                body = request.environ["wsgi.input"].read(limit + 1)
            except (OSError, ValueError):
                malformed = BadRequest("malformed_body", "the chunked body is malformed")
                return response_for_exception(malformed)
            if len(body) > limit:
                return response_for_exception(_too_large(limit))
            request.environ["wsgi.input"] = io.BytesIO(body)
            request.environ["CONTENT_LENGTH"] = str(len(body))
            del request.environ["HTTP_TRANSFER_ENCODING"]  # de-chunked now: trust the length
        request.max_content_length = limit
        response: Response = super().handle_request(request)
        return response

    def response_from_result(self, result: Any) -> Response:
        if isinstance(result, Response):
            return result
        status, payload = result if isinstance(result, tuple) else (self.doc.status, result)
        # The services answer in their own casing; the public API's is camelCase, here.
        body = json.dumps(camelize(payload))
        return Response(body, status=status, content_type="application/json")

    def response_from_exception(self, exc: BaseException) -> Response:
        return response_for_exception(exc)


api = ApiEntrypoint.decorator


class InternalEntrypoint(ApiEntrypoint):
    """A route of the status port only: not on the API port, not in the OpenAPI document."""

    server = StatusWebServer()


internal = InternalEntrypoint.decorator


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge("payload_too_large", f"the body may be at most {limit} bytes")


def _chunked(request: Request) -> bool:
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def json_body(request: Request) -> Any:
    """The request's JSON body; a clear 400 for anything that is not JSON.

    JSON between systems is UTF-8 (RFC 8259 8.1): the bytes are decoded strictly,
    so invalid or surrogate-encoding bytes, a byte order mark, or UTF-16/32 (which
    ``json.loads`` would otherwise guess) are malformed too.
    """
    if not request.mimetype == "application/json":
        raise BadRequest("unsupported_media_type", "send the body as application/json")
    try:
        text = (request.get_data(cache=True) or b"null").decode("utf-8")
        return json.loads(text, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BadRequest("malformed_json", "the body is not valid JSON") from exc


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def json_input(request: Request) -> Any:
    """The JSON body a route reads: ``json_body``, with only text the services can store."""
    value = json_body(request)
    refuse_unstorable_text(value)
    return value


def query_args(request: Request) -> dict[str, str]:
    """The query parameters a route reads, with only text the services can store."""
    args: dict[str, str] = request.args.to_dict()
    refuse_unstorable_text(args)
    return args


def refuse_unstorable_text(value: Any) -> None:
    """422 for a string (value or key, at any depth) with a NUL or an unpaired surrogate.

    Both are valid JSON escapes (``\\u0000``, ``\\ud800``), but PostgreSQL text and
    jsonb cannot hold NUL, and an unpaired surrogate is not Unicode text (it cannot
    be encoded to UTF-8): anywhere downstream they fail as a 500. The walk is
    iterative, as deep as ``json.loads`` allowed.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not _STORABLE.fullmatch(item):
                raise InvalidInput(
                    "invalid_text",
                    "text may not contain NUL characters or unpaired surrogates",
                )
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


_STORABLE = re.compile(r"[^\x00\ud800-\udfff]*")  # no NUL, no surrogate
