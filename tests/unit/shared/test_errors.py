"""Errors cross RPC as themselves: nameko serialises them to JSON and back."""

from __future__ import annotations

import json

import pytest
from nameko.exceptions import RemoteError, deserialize, serialize

from shared.errors import (
    BadRequest,
    Conflict,
    DeckyardError,
    Forbidden,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServiceUnavailable,
    Unauthorized,
)

ERROR_CLASSES = [
    InvalidInput,
    BadRequest,
    Unauthorized,
    Forbidden,
    NotFound,
    Conflict,
    PayloadTooLarge,
    RateLimited,
    ServiceUnavailable,
]

EXPECTED_STATUS = {
    InvalidInput: 422,
    BadRequest: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    PayloadTooLarge: 413,
    RateLimited: 429,
    ServiceUnavailable: 503,
}


def over_rpc(exc: BaseException) -> BaseException:
    """What the caller of an RPC sees when the handler raised ``exc``."""
    wire = json.loads(json.dumps(serialize(exc)))
    return deserialize(wire)


def test_every_deckyard_error_subclass_is_covered():
    assert set(DeckyardError.__subclasses__()) == set(ERROR_CLASSES)


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_error_crosses_rpc_as_the_same_class_with_code_message_and_details(cls):
    details = {"fields": {"name": ["Missing data for required field."]}, "hint": "try again"}
    original = cls("some_code", "a human message", details)

    received = over_rpc(original)

    assert type(received) is cls
    assert received.code == "some_code"
    assert received.message == "a human message"
    assert received.details == details
    assert received.status == EXPECTED_STATUS[cls]


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_error_without_details_crosses_rpc_with_empty_details(cls):
    received = over_rpc(cls("no_details", "nothing more to say"))

    assert type(received) is cls
    assert received.details == {}
    assert str(received) == "no_details: nothing more to say"


def test_error_details_keep_their_json_types_across_rpc():
    details = {"limit": 10, "retry_after": 2.5, "final": True, "previous": None, "ids": [1, 2]}

    received = over_rpc(Conflict("too_many", "slow down", details))

    assert received.details == details


def test_the_base_class_is_not_deserialisable_and_arrives_as_remote_error():
    received = over_rpc(DeckyardError("x", "y"))

    assert isinstance(received, RemoteError)


def test_error_str_is_code_and_message():
    assert str(NotFound("player_not_found", "no such player")) == "player_not_found: no such player"
