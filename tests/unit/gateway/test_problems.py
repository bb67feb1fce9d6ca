"""Every failure becomes RFC 9457 problem+json with a stable code, and leaks nothing."""

from __future__ import annotations

import json
import logging
import uuid

import pytest

from gateway.problems import (
    PROBLEM_CONTENT_TYPE,
    method_not_allowed,
    problem,
    response_for_exception,
    route_not_found,
)
from shared.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServiceUnavailable,
    Unauthorized,
)

ERRORS = [
    (InvalidInput, 422, "Invalid input"),
    (BadRequest, 400, "Bad request"),
    (Unauthorized, 401, "Unauthorized"),
    (Forbidden, 403, "Forbidden"),
    (NotFound, 404, "Not found"),
    (Conflict, 409, "Conflict"),
    (PayloadTooLarge, 413, "Payload too large"),
    (RateLimited, 429, "Too many requests"),
    (ServiceUnavailable, 503, "Service unavailable"),
]


def body_of(response) -> dict:
    return json.loads(response.body)


@pytest.mark.parametrize(("cls", "status", "title"), ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_deckyard_error_becomes_a_problem_with_its_status_code_and_message(cls, status, title):
    response = response_for_exception(cls("thing_went_wrong", "A readable explanation."))

    assert response.status_code == status
    assert response.media_type == PROBLEM_CONTENT_TYPE
    assert body_of(response) == {
        "type": "https://deckyard.dev/problems/thing_went_wrong",
        "title": title,
        "status": status,
        "code": "thing_went_wrong",
        "detail": "A readable explanation.",
    }


def test_error_details_are_added_to_the_body_but_cannot_override_its_members():
    details = {"fields": {"name": ["Required."]}, "status": 200, "code": "spoofed"}

    body = body_of(response_for_exception(InvalidInput("validation_failed", "bad", details)))

    assert body["fields"] == {"name": ["Required."]}
    assert body["status"] == 422
    assert body["code"] == "validation_failed"


def test_unauthorized_carries_a_bearer_www_authenticate_challenge():
    response = response_for_exception(Unauthorized("token_expired", "expired"))

    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("cls", [Forbidden, NotFound, InvalidInput, ServiceUnavailable])
def test_other_errors_carry_no_www_authenticate(cls):
    assert "WWW-Authenticate" not in response_for_exception(cls("c", "m")).headers


def test_unexpected_exception_is_a_500_that_hides_its_text_but_gives_an_error_id(caplog):
    with caplog.at_level(logging.ERROR, logger="gateway.problems"):
        response = response_for_exception(RuntimeError("secret db password xyz"))

    text = response.body.decode()
    body = json.loads(text)
    assert response.status_code == 500
    assert response.media_type == PROBLEM_CONTENT_TYPE
    assert "secret" not in text
    assert "xyz" not in text
    assert "RuntimeError" not in text
    assert body["code"] == "internal_error"
    assert uuid.UUID(body["errorId"])
    assert body["errorId"] in caplog.text  # the id leads to the logged traceback


def test_each_unexpected_exception_gets_its_own_error_id():
    first = body_of(response_for_exception(ValueError("a")))
    second = body_of(response_for_exception(ValueError("a")))

    assert first["errorId"] != second["errorId"]


def test_unknown_route_is_route_not_found():
    response = route_not_found()

    assert response.status_code == 404
    assert response.media_type == PROBLEM_CONTENT_TYPE
    assert body_of(response)["code"] == "route_not_found"


def test_wrong_method_is_method_not_allowed_with_an_allow_header():
    response = method_not_allowed(["GET", "POST"])

    assert response.status_code == 405
    assert body_of(response)["code"] == "method_not_allowed"
    assert response.headers["Allow"] == "GET, POST"


def test_problem_helper_sets_given_headers():
    response = problem(429, "slow_down", "Too many requests", "wait", headers={"Retry-After": "3"})

    assert response.headers["Retry-After"] == "3"
    assert body_of(response)["type"] == "https://deckyard.dev/problems/slow_down"


def test_missing_token_challenge_carries_no_error_but_a_bad_token_does():
    from shared.errors import Unauthorized

    missing = response_for_exception(Unauthorized("missing_token", "send one"))
    invalid = response_for_exception(Unauthorized("invalid_token", "bad"))
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    assert invalid.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'
