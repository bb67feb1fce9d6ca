"""The OpenAPI 3.1 document, generated from the routes and their schemas.

Nothing here is written by hand twice: paths, methods, summaries, request and
response schemas come from each ``@api`` route's ``RouteDoc``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from gateway.http import ECONOMY_GAMES, VERSUS_GAMES, Route, routes_of
from gateway.problem_codes import INTERNAL_ERROR, RETRYABLE, codes_for, every_code
from gateway.problems import PROBLEM_CONTENT_TYPE, ProblemSchema
from gateway.ratelimit import MUTATING_METHODS

_ERROR_TEXT = {
    400: "Malformed request",
    401: "Missing or invalid access token",
    403: "Not allowed (role, ownership or a locked account)",
    404: "Not found",
    409: "Conflict with the current state",
    413: "Body too large",
    422: "Invalid input",
    429: "Too many changes: wait for Retry-After seconds",
    503: "A service is unavailable",
}


def named_api_routes(gateway_cls: type) -> list[tuple[str, Route]]:
    """(handler name, route) of every public route, by path and method (the status
    port's routes are for operators, not part of the public API)."""
    return [(name, route) for name, route in routes_of(gateway_cls) if not route.internal]


def api_routes(gateway_cls: type) -> list[Route]:
    return [route for _, route in named_api_routes(gateway_cls)]


# A handler named after what it does keeps its name (``start_attempt``); one named after
# what it shows reads it (``me`` -> ``getMe``). A path of one game names it after the verb
# (``/quest/events/{id}/attempt``: ``startQuestAttempt``), so games never collide.
OPERATION_VERBS = frozenset(
    (
        "get",
        "list",
        "create",
        "edit",
        "delete",
        "start",
        "answer",
        "choose",
        "forfeit",
        "transition",
    )
)
GAMES = frozenset({"quest", "terrakard", "chronovore"})


def operation_id(handler: str, method: str, url: str) -> str:
    """The stable camelCase operationId of a route without one in its RouteDoc."""
    words = handler.split("_")
    if words[0] not in OPERATION_VERBS:
        if method != "GET":
            raise ValueError(
                f"{method} {url}: name the handler with a verb or give an operation_id"
            )
        words = ["get", *words]
    game = url.strip("/").split("/", 1)[0]
    if game in GAMES and game not in words:
        words.insert(1, game)
    return words[0] + "".join(word.capitalize() for word in words[1:])


PROBLEM_SCHEMA_REF = "#/components/schemas/Problem"


def problem_response(status: int, codes: list[str], description: str) -> dict[str, Any]:
    """A problem+json response: the one ``Problem`` schema by reference, and the codes this
    operation can carry at this status in ``x-codes`` and in its description. Narrowing the
    schema here instead (``allOf`` with a ``code`` enum of its own) made every generator
    write a model per operation and status: 1,953 of openapi-python-client's 2,175."""
    listed = ", ".join(f"`{code}`" for code in codes)
    return {
        "description": f"{description}; codes: {listed}" if codes else description,
        "x-codes": codes,
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": PROBLEM_SCHEMA_REF}}},
    }


# Extension members (RFC 9457 3.2) that more than a client's message box reads; any other
# a refusal carries stays allowed by ``additionalProperties``.
PROBLEM_EXTENSIONS: dict[str, Any] = {
    "retryAfter": {
        "type": "integer",
        "description": "rate_limited: seconds to wait (as the Retry-After header)",
    },
    "scope": {
        "type": "string",
        "enum": ["player", "author", "address"],
        "description": "rate_limited: whose budget is spent",
    },
    "currentVersion": {
        "type": "integer",
        "description": "stale_version on authored content: the version it is at now",
    },
    "version": {
        "type": "integer",
        "description": "stale_version on a deck or a plan: the version it is at now",
    },
    "problems": {
        "type": "array",
        "items": {},  # one shape per refusal: a union would be one more model per shape
        "description": (
            "What is missing or wrong, one item each: a line (not_ready) or {code, message} "
            "(a deck's or a plan's rules)"
        ),
    },
    "matchId": {"type": "string", "description": "active_match_exists: the match under way"},
}


def _complete_problem_schema(problem: dict[str, Any]) -> None:
    """Every code as the ``enum`` of ``code``, the extension members, and which codes are
    safe to send again (``x-retryable``; docs/api.md, "Errors")."""
    problem["properties"]["code"]["enum"] = every_code()
    problem["properties"].update(PROBLEM_EXTENSIONS)
    problem["x-retryable"] = sorted(RETRYABLE)
    problem["description"] = (
        "RFC 9457 problem details with a stable `code`; each operation's problem responses "
        "list the codes it can answer (`x-codes`). Safe to send again unchanged (a write "
        "that takes an Idempotency-Key with the same key): "
        + ", ".join(f"`{code}`" for code in sorted(RETRYABLE))
        + "."
    )


_RULE_VARIABLE = re.compile(r"<(?:([^:<>]+):)?([^<>]+)>")
_CONVERTER_SCHEMAS = {
    "economy": {"type": "string", "enum": list(ECONOMY_GAMES)},
    "versus": {"type": "string", "enum": list(VERSUS_GAMES)},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "uuid": {"type": "string", "format": "uuid"},
}


def _openapi_path(werkzeug_rule: str) -> str:
    return _RULE_VARIABLE.sub(r"{\2}", werkzeug_rule)


def _path_parameters(werkzeug_rule: str) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": _CONVERTER_SCHEMAS.get(converter or "", {"type": "string"}),
        }
        for converter, name in _RULE_VARIABLE.findall(werkzeug_rule)
    ]


def build_spec(
    service_cls: type, version: str = "0.1.0", servers: Sequence[str] = ("/v1",)
) -> dict[str, Any]:
    """The document; ``servers`` are the API's base URLs with its version (``API_SERVERS``;
    ``/v1`` by default: the version on the host that served the document)."""
    spec = APISpec(
        title="Deckyard API",
        version=version,
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": "One backend for Quest, TerraKard and Chronovore."},
        servers=[{"url": url} for url in servers],
    )
    spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    )
    spec.components.schema("Problem", schema=ProblemSchema)
    paths: dict[str, dict[str, Any]] = {}
    for handler, route in named_api_routes(service_cls):
        doc = route.doc
        # A list is a page, never a bare array (gateway/routes/pages.py).
        schema: Any = doc.response or {}
        body: dict[str, Any] = {doc.content_type: {"schema": schema}}
        success: dict[str, Any] = {"description": "Success"}
        if doc.status != 204:  # 204 No Content: no body, so no media type
            success["content"] = body
        responses: dict[str, Any] = {str(doc.status): success}
        for status in doc.also:
            responses[str(status)] = {"description": _ERROR_TEXT.get(status, ""), "content": body}
        errors = set(doc.errors) | ({401, 403, 503} if doc.auth != "none" else set())
        if doc.auth != "none" and set(route.method.split(",")) & MUTATING_METHODS:
            errors.add(429)  # the rate limits (gateway/ratelimit.py)
        for status in sorted(errors):
            codes = codes_for(status, doc.codes, author=doc.auth == "author")
            responses[str(status)] = problem_response(
                status, codes, _ERROR_TEXT.get(status, "Error")
            )
        responses["default"] = problem_response(500, [INTERNAL_ERROR], "Unexpected error")
        operation: dict[str, Any] = {"summary": doc.summary, "responses": responses}
        parameters = _path_parameters(route.url)
        if doc.query is not None:  # apispec expands the schema into one parameter per field
            parameters.append({"in": "query", "schema": doc.query})
        parameters.extend(doc.headers)
        if parameters:
            operation["parameters"] = parameters
        if doc.tags:
            operation["tags"] = list(doc.tags)
        if doc.auth != "none":
            operation["security"] = [{"bearerAuth": []}]
            operation["description"] = f"Requires the {doc.auth} role."
        if doc.request is not None:
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": doc.request}},
            }
        methods = [method.strip() for method in route.method.split(",")]
        for method in methods:
            name = doc.operation_id or operation_id(handler, method, route.url)
            if len(methods) > 1:
                name += method.capitalize()
            paths.setdefault(_openapi_path(route.url), {})[method.lower()] = {
                **operation,
                "operationId": name,
            }
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    document: dict[str, Any] = spec.to_dict()
    _complete_problem_schema(document["components"]["schemas"]["Problem"])
    return document


def render_docs_page(spec: dict[str, Any]) -> str:
    """A self-contained page listing every route (no scripts, works offline)."""
    rows = []
    for path, operations in spec.get("paths", {}).items():
        for method, operation in operations.items():
            codes = ", ".join(operation.get("responses", {}))
            auth = "bearer token" if operation.get("security") else "public"
            rows.append(
                f"<tr><td><code>{html.escape(method.upper())}</code></td>"
                f"<td><code>{html.escape(path)}</code></td>"
                f"<td>{html.escape(operation.get('summary', ''))}</td>"
                f"<td>{auth}</td><td>{html.escape(codes)}</td></tr>"
            )
    title = html.escape(spec["info"]["title"])
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{title}</title><style>body{{font-family:sans-serif;margin:2em}}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em}"
        "</style></head><body>"
        f"<h1>{title} {html.escape(spec['info']['version'])}</h1>"
        "<p>Machine-readable: <a href=/openapi.json>/openapi.json</a> (OpenAPI 3.1). "
        "Errors are <code>application/problem+json</code> with a stable <code>code</code>.</p>"
        "<table><tr><th>Method</th><th>Path</th><th>What</th><th>Auth</th>"
        "<th>Responses</th></tr>" + "".join(rows) + "</table></body></html>"
    )
