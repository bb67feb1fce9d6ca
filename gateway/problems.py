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
from starlette.responses import Response

from gateway.casing import CamelSchema, camelize
from shared.errors import DeckyardError
from shared.logs import REQUEST_ID

log = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"


def route_not_found() -> Response:
    return problem(404, "route_not_found", "Not Found", "There is no such route.")


def method_not_allowed(allowed: list[str]) -> Response:
    return problem(
        405,
        "method_not_allowed",
        "Method Not Allowed",
        "This route does not accept that method.",
        headers={"Allow": ", ".join(allowed)},
    )


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
    request_id = REQUEST_ID.get()
    if request_id is not None:  # the same id as the X-Request-ID header: quote it to support
        body["requestId"] = request_id
    return Response(
        json.dumps(body), status_code=status, media_type=PROBLEM_CONTENT_TYPE, headers=headers
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
    request_id = fields.String(
        metadata={"description": "The request's id (its X-Request-ID), in every log line of it"}
    )
