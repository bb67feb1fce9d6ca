"""The gateway's HTTP entrypoint: JSON in and out, problem+json for errors.

``api`` is nameko's ``@http`` with three changes: a response body is any JSON
value; every failure goes through ``gateway.problems``; and the route keeps
its documentation (summary, schemas, auth) for the OpenAPI document. Unknown
routes and wrong methods are answered as problem+json too, by the web server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema
from nameko.web.handlers import HttpRequestHandler
from nameko.web.server import WebServer, WsgiApp
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request, Response

from gateway.problems import response_for_exception
from shared.errors import BadRequest, PayloadTooLarge

DEFAULT_MAX_BODY_BYTES = 64 * 1024


class ProblemWsgiApp(WsgiApp):  # type: ignore[misc]
    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ, shallow=True)
        adapter = self.url_map.bind_to_environ(environ)
        try:
            provider, values = adapter.match()
            request.path_values = values  # type: ignore[attr-defined]
            response = provider.handle_request(request)
        except HTTPException as exc:
            response = response_for_exception(exc)
        return response(environ, start_response)


class ProblemWebServer(WebServer):  # type: ignore[misc]
    def get_wsgi_app(self) -> ProblemWsgiApp:
        return ProblemWsgiApp(self)


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


class ApiEntrypoint(HttpRequestHandler):  # type: ignore[misc]
    server = ProblemWebServer()

    def __init__(self, method: str, url: str, doc: RouteDoc, **kwargs: Any) -> None:
        self.doc = doc
        super().__init__(method, url, **kwargs)

    def handle_request(self, request: Request) -> Response:
        limit = self.container.config.get("MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
        if request.content_length is not None and request.content_length > limit:
            return response_for_exception(
                PayloadTooLarge("payload_too_large", f"the body may be at most {limit} bytes")
            )
        request.max_content_length = limit  # also bounds a chunked body
        response: Response = super().handle_request(request)
        return response

    def response_from_result(self, result: Any) -> Response:
        if isinstance(result, Response):
            return result
        status, payload = result if isinstance(result, tuple) else (self.doc.status, result)
        return Response(json.dumps(payload), status=status, content_type="application/json")

    def response_from_exception(self, exc: BaseException) -> Response:
        return response_for_exception(exc)


api = ApiEntrypoint.decorator


def json_body(request: Request) -> Any:
    """The request's JSON body; a clear 400 for anything that is not JSON."""
    if not request.mimetype == "application/json":
        raise BadRequest("unsupported_media_type", "send the body as application/json")
    try:
        return json.loads(request.get_data(cache=True) or b"null", parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BadRequest("malformed_json", "the body is not valid JSON") from exc


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")
