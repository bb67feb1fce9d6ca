"""The one place that turns exceptions into HTTP responses.

Every error is RFC 9457 problem+json with a stable ``code``. A refusal we
raised on purpose (a DeckyardError, here or in a service across RPC) shows its
code and message; anything else is a 500 that says only that something failed
and gives an id to find it in the logs - never the exception's text.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

from marshmallow import INCLUDE, fields
from nameko.exceptions import UnknownService
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response

from gateway.casing import CamelSchema, camelize
from shared.errors import DeckyardError

log = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"

_HTTP_CODES = {
    404: ("route_not_found", "There is no such route."),
    405: ("method_not_allowed", "This route does not accept that method."),
    413: ("payload_too_large", "The request body is too large."),
}


def problem(
    status: int,
    code: str,
    title: str,
    detail: str,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body: dict[str, Any] = {
        "type": f"https://deckyard.dev/problems/{code}",
        "title": title,
        "status": status,
        "code": code,
        "detail": detail,
    }
    if extra:  # extension members are camelCase like every other member name
        body.update({k: v for k, v in camelize(extra).items() if k not in body})
    return Response(
        json.dumps(body), status=status, content_type=PROBLEM_CONTENT_TYPE, headers=headers
    )


def _bearer_challenge(code: str) -> str:
    # RFC 6750 3.1: a request without credentials gets a challenge without an error.
    return "Bearer" if code == "missing_token" else 'Bearer error="invalid_token"'


def response_for_exception(exc: BaseException) -> Response:
    if isinstance(exc, DeckyardError):
        headers = {"WWW-Authenticate": _bearer_challenge(exc.code)} if exc.status == 401 else None
        if exc.status == 429 and isinstance(exc.details, dict) and "retry_after" in exc.details:
            headers = {"Retry-After": str(exc.details["retry_after"])}
        return problem(exc.status, exc.code, exc.title, exc.message, exc.details, headers)
    if isinstance(exc, UnknownService):
        return problem(
            503,
            "service_unavailable",
            "Service unavailable",
            "A service needed for this request is not running.",
        )
    if isinstance(exc, RequestEntityTooLarge):
        code, detail = _HTTP_CODES[413]
        return problem(413, code, "Payload too large", detail)
    if isinstance(exc, RequestRedirect):  # a redirect is an answer, not a problem
        redirect: Response = exc.get_response()
        return redirect
    if isinstance(exc, HTTPException) and exc.code is not None:
        code, detail = _HTTP_CODES.get(exc.code, ("http_error", exc.description or ""))
        headers = None
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers = {"Allow": ", ".join(exc.valid_methods)}
        return problem(exc.code, code, exc.name, detail, headers=headers)
    error_id = str(uuid.uuid4())
    log.error("unhandled error %s", error_id, exc_info=(type(exc), exc, exc.__traceback__))
    return problem(
        500,
        "internal_error",
        "Internal server error",
        "Something went wrong on our side.",
        {"error_id": error_id},
    )


class ProblemSchema(CamelSchema):
    """RFC 9457 problem details; a problem may carry extension members (RFC 9457 3.2)."""

    class Meta:
        unknown = INCLUDE  # documented as additionalProperties: true

    type = fields.String(required=True, metadata={"description": "A URI naming the problem type"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"description": "Stable machine-readable code"})
    detail = fields.String(required=True, metadata={"description": "A human explanation"})
    fields_ = fields.Dict(
        data_key="fields",
        metadata={"description": "validation_failed: the refused fields and why"},
    )
    error_id = fields.String(
        metadata={"description": "internal_error: the id to find the failure in the logs"}
    )
